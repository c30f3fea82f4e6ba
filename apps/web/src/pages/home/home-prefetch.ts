import type { QueryClient } from '@tanstack/react-query';
import { currentOrganizationQuery, dashboardFilter, transactionSumsQuery } from '../../api/dashboard.ts';
import { homePathOf } from '../../session/routes.ts';
import { sessionStore } from '../../session/session-store.ts';

/** The account filter's value for every account, as the dashboard API takes it. */
export const ALL_ACCOUNTS = 'all';

/** What the home page shows first: today, every account. */
export const FIRST_VIEW = { preset: 'today', custom: null, account: ALL_ACCOUNTS } as const;

/**
 * Opening home signed in would wait for the page's code, then for the organization (its time
 * zone places the period), and only then ask for the figures. All three are asked for here,
 * before the first render. The page's files were preloaded by the page's head beside the framework,
 * which is four times their size, so waiting for them costs little even on a slow link and
 * spares a first render of the skeleton followed by a second of the page. Resolves when the
 * first render may start: at once for any other visitor, and also when the code fails to load
 * (the page then shows its own loading error).
 */
export async function prefetchHome(queryClient: QueryClient, preloadPage: () => Promise<unknown>): Promise<void> {
  const { accessToken, role } = sessionStore.get();
  if (!accessToken || !role || window.location.pathname !== '/' || homePathOf(role) !== '/') return;
  queryClient.fetchQuery(currentOrganizationQuery).then(
    ({ timeZone }) => {
      const filter = dashboardFilter(timeZone, FIRST_VIEW.preset, FIRST_VIEW.custom, FIRST_VIEW.account);
      return queryClient.prefetchQuery(transactionSumsQuery(filter));
    },
    // A failure is the page's to show, when it asks again.
    () => {},
  );
  await preloadPage().catch(() => {});
}
