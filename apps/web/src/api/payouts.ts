import { type CancelledDestinationChange, MFA_CODE_HEADER } from '@rayo/shared';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiCall } from './client.ts';

/** The organization's payouts, a page at a time, its fiat share by bank transfer, and what waits. */
export function usePayouts(page: number, pageSize: number) {
  return useQuery({
    queryKey: ['settings', 'payouts', page, pageSize],
    queryFn: () => apiCall('GET /api/settings/payouts', { query: { page, pageSize } }),
    placeholderData: keepPreviousData,
  });
}

/**
 * An admin cancels a change of payout destination: the one before comes back, so every settings
 * query is read again. With MFA on, the code goes in the `mfa-code` header (DESIGN §6).
 */
export function useCancelDestinationChange() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ changeId, mfaCode }: { changeId: string; mfaCode?: string }) =>
      apiCall('POST /api/settings/payout-destination-changes/:id/cancel', {
        params: { id: changeId },
        ...(mfaCode ? { headers: { [MFA_CODE_HEADER]: mfaCode } } : {}),
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['settings'] }),
  });
}

/** The link mailed to every admin: no session needed, its token is the proof. */
export function cancelDestinationChangeByLink(token: string): Promise<CancelledDestinationChange> {
  return apiCall('POST /api/public/payout-destination-changes/cancel', {
    body: { token },
    auth: false,
  });
}
