import { QueryClientProvider } from '@tanstack/react-query';
import { Outlet } from 'react-router';
import { queryClient } from '../api/query-client.ts';

/**
 * The routes whose screens read the API through TanStack Query: every one past the sign-in
 * pages, and onboarding. The login page does without it, and without its code.
 */
export function QueryRoutes() {
  return (
    <QueryClientProvider client={queryClient}>
      <Outlet />
    </QueryClientProvider>
  );
}
