import { MFA_CODE_HEADER, type Refund, type SaleRefunds } from '@rayo/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from './client.ts';

const refundsKey = (transactionId: string) => ['refunds', transactionId] as const;

/** A sale's refunds and what is left to refund; admins get each open refund's link. */
export function useSaleRefunds(transactionId: string) {
  return useQuery({
    queryKey: refundsKey(transactionId),
    queryFn: () => apiRequest<SaleRefunds>(`/transactions/${transactionId}/refunds`),
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
      apiRequest<Refund>(`/transactions/${transactionId}/refunds`, {
        method: 'POST',
        body: { amountMsat, idempotencyKey, ...(destination ? { destination } : {}) },
        ...(mfaCode ? { headers: { [MFA_CODE_HEADER]: mfaCode } } : {}),
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: refundsKey(transactionId) }),
  });
}
