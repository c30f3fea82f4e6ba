import { MFA_CODE_HEADER, type PayoutSplitRequest, type PayoutSplitSettings } from '@rayo/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiCall } from './client.ts';

const payoutSplitKey = ['settings', 'payout-split'] as const;

export function usePayoutSplit() {
  return useQuery({
    queryKey: payoutSplitKey,
    queryFn: () => apiCall('GET /api/settings/payout-split'),
  });
}

/** With MFA on, the code goes in the `mfa-code` header (DESIGN §6). */
export function useSetPayoutSplit() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ split, mfaCode }: { split: PayoutSplitRequest; mfaCode?: string }) =>
      apiCall('PUT /api/settings/payout-split', {
        body: split,
        ...(mfaCode ? { headers: { [MFA_CODE_HEADER]: mfaCode } } : {}),
      }),
    onSuccess: (settings) => queryClient.setQueryData<PayoutSplitSettings>(payoutSplitKey, settings),
  });
}
