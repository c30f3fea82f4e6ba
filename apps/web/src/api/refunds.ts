import { MFA_CODE_HEADER } from '@rayo/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiCall } from './client.ts';

const refundsKey = (transactionId: string) => ['refunds', transactionId] as const;

/** A sale's refunds and what is left to refund; admins get each open refund's link. */
export function useSaleRefunds(transactionId: string) {
  return useQuery({
    queryKey: refundsKey(transactionId),
    queryFn: () => apiCall('GET /api/transactions/:id/refunds', { params: { id: transactionId } }),
  });
}

/**
 * Refunds a sale. `idempotencyKey` is made once per refund the admin means, so a double click
 * or a retry makes one; with MFA on, the code goes in the `mfa-code` header.
 */
export function useRefundSale(transactionId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({
      amountMsat,
      idempotencyKey,
      destination,
      mfaCode,
    }: {
      amountMsat: number;
      idempotencyKey: string;
      /** The customer's Lightning invoice or address, or Bitcoin address; without it the answer carries a refund link. */
      destination?: string;
      mfaCode?: string;
    }) =>
      apiCall('POST /api/transactions/:id/refunds', {
        params: { id: transactionId },
        body: { amountMsat, idempotencyKey, ...(destination ? { destination } : {}) },
        ...(mfaCode ? { headers: { [MFA_CODE_HEADER]: mfaCode } } : {}),
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: refundsKey(transactionId) }),
  });
}
