// Mantine's global styles; each component's own come with its code (vite.config.ts).
import '@mantine/core/styles/baseline.css';
import '@mantine/core/styles/default-css-variables.css';
import '@mantine/core/styles/global.css';
import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { DeferredNotifications } from './components/DeferredNotifications.tsx';
import { ThemeProvider } from './components/ThemeProvider.tsx';
import { followSessionLanguage, i18nReady } from './i18n/index.ts';
import { AppRoutes, preloadRouteAt } from './router.tsx';
import { homePathOf } from './session/routes.ts';
import { sessionStore } from './session/session-store.ts';

/** A signed-in visitor opening their home at `/`: the dashboard, whose figures are asked for first. */
function opensHome(): boolean {
  const { accessToken, role } = sessionStore.get();
  return Boolean(accessToken && role && window.location.pathname === '/' && homePathOf(role) === '/');
}

// The session's language is loaded before the first render, so no screen shows in the other; and
// for home, its code and first figures (pages/home/home-prefetch.ts).
await Promise.all([
  i18nReady(),
  opensHome()
    ? import('./pages/home/home-prefetch.ts')
        .then((home) => home.prefetchHome(() => preloadRouteAt('/')))
        .catch(() => {})
    : undefined,
]);
followSessionLanguage();

const root = document.getElementById('root');
if (!root) throw new Error('The page has no #root element');
// In a transition, which React renders in slices of a few milliseconds: the first render of the
// whole app (and of each lazy screen as it arrives) was one long task that kept a phone from
// responding (docs/benchmarks.md).
startTransition(() =>
  createRoot(root).render(
    <StrictMode>
      <ThemeProvider>
        <DeferredNotifications />
        <BrowserRouter>
          <AppRoutes />
        </BrowserRouter>
      </ThemeProvider>
    </StrictMode>,
  ),
);
