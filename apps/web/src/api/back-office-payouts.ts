import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiCall } from './client.ts';

const payoutsKey = ['back-office', 'payouts'] as const;

/** An organization's payouts as back office sees them, a page at a time, newest first. */
export function useOrganizationPayouts(organizationId: string, page: number, pageSize: number) {
  return useQuery({
    queryKey: [...payoutsKey, organizationId, page, pageSize],
    queryFn: () =>
      apiCall('GET /api/back-office/organization/:id/payouts', {
        params: { id: organizationId },
        query: { page, pageSize },
      }),
    placeholderData: keepPreviousData,
  });
}

/** Cancels a payout; its shares are paid again by the next batch. The lists reload either way. */
export function useCancelPayout() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (payoutId: string) => apiCall('POST /api/back-office/payouts/:id/cancel', { params: { id: payoutId } }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: payoutsKey }),
  });
}
