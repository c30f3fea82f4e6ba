import { type CheckoutProtection, MFA_CODE_HEADER } from '@rayo/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiCall } from './client.ts';

const checkoutProtectionKey = ['settings', 'checkout-protection'] as const;

export function useCheckoutProtection() {
  return useQuery({
    queryKey: checkoutProtectionKey,
    queryFn: () => apiCall('GET /api/settings/checkout-protection'),
  });
}

/** With MFA on, the code goes in the `mfa-code` header (DESIGN §6). */
export function useSetCheckoutProtection() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ enabled, mfaCode }: { enabled: boolean; mfaCode?: string }) =>
      apiCall('PUT /api/settings/checkout-protection', {
        body: { enabled },
        ...(mfaCode ? { headers: { [MFA_CODE_HEADER]: mfaCode } } : {}),
      }),
    onSuccess: (setting) => queryClient.setQueryData<CheckoutProtection>(checkoutProtectionKey, setting),
  });
}
