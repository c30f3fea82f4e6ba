import { type CreatePaymentLinkRequest, checkoutPath, type PaymentLink } from '@rayo/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from './client.ts';

const paymentLinksKey = ['payment-links'] as const;

/** The payment links of one virtual BPT. */
export function usePaymentLinks(virtualBptId: string) {
  return useQuery({
    queryKey: [...paymentLinksKey, 'virtual-bpt', virtualBptId],
    queryFn: () => apiRequest<PaymentLink[]>(`/virtual-bpts/${encodeURIComponent(virtualBptId)}/payment-links`),
  });
}

/** The payment links of every virtual BPT selling for the account. */
export function useAccountPaymentLinks(accountId: string) {
  return useQuery({
    queryKey: [...paymentLinksKey, 'account', accountId],
    queryFn: () => apiRequest<PaymentLink[]>(`/accounts/${encodeURIComponent(accountId)}/payment-links`),
  });
}

function usePaymentLinkMutation<Variables>(call: (variables: Variables) => Promise<unknown>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSettled: () => queryClient.invalidateQueries({ queryKey: paymentLinksKey }),
  });
}

export function useCreatePaymentLink(virtualBptId: string) {
  return usePaymentLinkMutation((request: CreatePaymentLinkRequest) =>
    apiRequest<PaymentLink>(`/virtual-bpts/${encodeURIComponent(virtualBptId)}/payment-links`, {
      method: 'POST',
      body: request,
    }),
  );
}

export function useDeletePaymentLink() {
  return usePaymentLinkMutation((id: string) =>
    apiRequest<void>(`/payment-links/${encodeURIComponent(id)}`, { method: 'DELETE' }),
  );
}

/** The public address a merchant shares for a payment link. */
export function paymentLinkUrl(id: string): string {
  return `${window.location.origin}${checkoutPath(encodeURIComponent(id))}`;
}
