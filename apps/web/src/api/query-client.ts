import { QueryCache, QueryClient } from '@tanstack/react-query';
import { isNetworkError } from './client.ts';

/** The one cache of API reads, shared by every screen under `QueryRoutes`. */
export const queryClient = new QueryClient({
  // SPEC §8: most failed loads are only logged; screens that say more do so themselves.
  queryCache: new QueryCache({ onError: (error) => console.error(error) }),
  defaultOptions: {
    queries: { retry: (failures, error) => isNetworkError(error) && failures < 1, refetchOnWindowFocus: false },
  },
});
