import { currentOrganizationQuery, dashboardFilter, transactionSumsQuery } from '../../api/dashboard.ts';
import { queryClient } from '../../api/query-client.ts';
import { FIRST_VIEW } from './first-view.ts';

/**
 * Opening home signed in would wait for the page's code, then for the organization (its time
 * zone places the period), and only then ask for the figures. All three are asked for here,
 * before the first render, which `main.tsx` holds until this resolves: once the page's code is
 * in (preloaded by the page's head beside the framework, four times its size, so waiting for it
 * costs little even on a slow link and spares a first render of the skeleton followed by a
 * second of the page), or has failed to load (the page then shows its own loading error).
 */
export async function prefetchHome(preloadPage: () => Promise<unknown>): Promise<void> {
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
