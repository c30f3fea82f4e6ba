// Mantine's global styles; each component's own come with its code (vite.config.ts).
import '@mantine/core/styles/baseline.css';
import '@mantine/core/styles/default-css-variables.css';
import '@mantine/core/styles/global.css';
import { Notifications } from '@mantine/notifications';
import { QueryCache, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { isNetworkError } from './api/client.ts';
import { ThemeProvider } from './components/ThemeProvider.tsx';
import { followSessionLanguage, i18nReady } from './i18n/index.ts';
import { prefetchHome } from './pages/home/home-prefetch.ts';
import { createRouter, preloadHomePage } from './router.tsx';

const queryClient = new QueryClient({
  // SPEC §8: most failed loads are only logged; screens that say more do so themselves.
  queryCache: new QueryCache({ onError: (error) => console.error(error) }),
  defaultOptions: {
    queries: { retry: (failures, error) => isNetworkError(error) && failures < 1, refetchOnWindowFocus: false },
  },
});

// The session's language is loaded before the first render, so no screen shows in the other.
await Promise.all([i18nReady(), prefetchHome(queryClient, preloadHomePage)]);
followSessionLanguage();

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
