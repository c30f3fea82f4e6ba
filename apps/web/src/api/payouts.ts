import type { PayoutPage } from '@rayo/shared';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiRequest } from './client.ts';

/** The organization's payouts, a page at a time, and its fiat share by bank transfer. */
export function usePayouts(page: number, pageSize: number) {
  return useQuery({
    queryKey: ['settings', 'payouts', page, pageSize],
    queryFn: () => apiRequest<PayoutPage>(`/settings/payouts?page=${page}&pageSize=${pageSize}`),
    placeholderData: keepPreviousData,
  });
}
