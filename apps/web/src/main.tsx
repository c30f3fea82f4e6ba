import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import '@mantine/dates/styles.css';
import '@mantine/charts/styles.css';
import { Notifications } from '@mantine/notifications';
import { QueryCache, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { isNetworkError } from './api/client.ts';
import { followSessionLanguage, initI18n } from './i18n/index.ts';
import { ThemeProvider } from './components/ThemeProvider.tsx';
import { createRouter } from './router.tsx';

initI18n();
followSessionLanguage();

const queryClient = new QueryClient({
  // SPEC §8: most failed loads are only logged; screens that say more do so themselves.
  queryCache: new QueryCache({ onError: (error) => console.error(error) }),
  defaultOptions: {
    queries: { retry: (failures, error) => isNetworkError(error) && failures < 1, refetchOnWindowFocus: false },
  },
});

const root = document.getElementById('root');
if (!root) throw new Error('The page has no #root element');
createRoot(root).render(
  <StrictMode>
    <ThemeProvider>
      <Notifications position="top-center" />
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={createRouter()} />
      </QueryClientProvider>
    </ThemeProvider>
  </StrictMode>,
);
