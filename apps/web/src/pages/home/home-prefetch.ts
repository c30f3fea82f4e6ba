import type { QueryClient } from '@tanstack/react-query';
import { currentOrganizationQuery } from '../../api/dashboard.ts';
import { homePathOf } from '../../session/routes.ts';
import { sessionStore } from '../../session/session-store.ts';

/**
 * Opening home signed in would wait for the page's code, then for the organization (its time
 * zone places the period), and only then ask for the figures. Both are asked for here, before
 * the first render, so they arrive while React starts and the figures are the only call left.
 */
export function prefetchHome(queryClient: QueryClient): void {
  const { accessToken, role } = sessionStore.get();
  if (!accessToken || !role || window.location.pathname !== '/' || homePathOf(role) !== '/') return;
  void import('./HomePage.tsx');
  // A failure is the page's to show, when it asks again.
  queryClient.prefetchQuery(currentOrganizationQuery);
}
