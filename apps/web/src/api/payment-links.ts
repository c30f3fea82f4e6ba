import { type CreatePaymentLinkRequest, checkoutPath } from '@rayo/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiCall } from './client.ts';

const paymentLinksKey = ['payment-links'] as const;

/** The payment links of one virtual BPT. */
export function usePaymentLinks(virtualBptId: string) {
  return useQuery({
    queryKey: [...paymentLinksKey, 'virtual-bpt', virtualBptId],
    queryFn: () => apiCall('GET /api/virtual-bpts/:id/payment-links', { params: { id: virtualBptId } }),
  });
}

/** The payment links of every virtual BPT selling for the account. */
export function useAccountPaymentLinks(accountId: string) {
  return useQuery({
    queryKey: [...paymentLinksKey, 'account', accountId],
    queryFn: () => apiCall('GET /api/accounts/:id/payment-links', { params: { id: accountId } }),
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
    apiCall('POST /api/virtual-bpts/:id/payment-links', { params: { id: virtualBptId }, body: request }),
  );
}

export function useDeletePaymentLink() {
  return usePaymentLinkMutation((id: string) => apiCall('DELETE /api/payment-links/:id', { params: { id } }));
}

/** The public address a merchant shares for a payment link. */
export function paymentLinkUrl(id: string): string {
  return `${window.location.origin}${checkoutPath(encodeURIComponent(id))}`;
}
