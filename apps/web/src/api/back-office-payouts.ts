import type { Payout, PayoutPage } from '@rayo/shared';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from './client.ts';

const payoutsKey = ['back-office', 'payouts'] as const;

/** An organization's payouts as back office sees them, a page at a time, newest first. */
export function useOrganizationPayouts(organizationId: string, page: number, pageSize: number) {
  return useQuery({
    queryKey: [...payoutsKey, organizationId, page, pageSize],
    queryFn: () =>
      apiRequest<PayoutPage>(
        `/back-office/organization/${encodeURIComponent(organizationId)}/payouts?page=${page}&pageSize=${pageSize}`,
      ),
    placeholderData: keepPreviousData,
  });
}

/** Cancels a payout; its shares are paid again by the next batch. The lists reload either way. */
export function useCancelPayout() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (payoutId: string) =>
      apiRequest<Payout>(`/back-office/payouts/${encodeURIComponent(payoutId)}/cancel`, { method: 'POST' }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: payoutsKey }),
  });
}
