import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { apiCall } from './client.ts';

/** How often a screen asks whether the demo's sales are recorded yet. */
const DEMO_DATA_POLL_MS = 3000;

/**
 * Whether a demo server is still recording its demo's sales (it does so after it starts). When
 * they are in, the dashboard's figures are fetched again, so they appear without a reload.
 */
export function useDemoDataPreparing(): boolean {
  const queryClient = useQueryClient();
  const query = useQuery({
    queryKey: ['ready'],
    queryFn: () => apiCall('GET /api/ready', { auth: false }),
    refetchInterval: (current) => (current.state.data?.demoData === 'preparing' ? DEMO_DATA_POLL_MS : false),
  });
  const preparing = query.data?.demoData === 'preparing';
  const wasPreparing = useRef(false);
  useEffect(() => {
    if (wasPreparing.current && !preparing) void queryClient.invalidateQueries({ queryKey: ['dashboard'] });
    wasPreparing.current = preparing;
  }, [preparing, queryClient]);
  return preparing;
}
