import type { CreateDonationInvoiceRequest, CreateDonationLinkRequest, SetDonationAddressRequest } from '@rayo/shared';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiCall } from './client.ts';

const donationsKey = ['donations'] as const;
const linksKey = [...donationsKey, 'links'] as const;
const addressKey = [...donationsKey, 'address'] as const;

export function useDonationLinks() {
  return useQuery({ queryKey: linksKey, queryFn: () => apiCall('GET /api/donation-links') });
}

/** The virtual BPTs a donation link can sell through. */
export function useVirtualBptChoices(enabled: boolean) {
  return useQuery({
    queryKey: ['virtual-bpts'],
    queryFn: () => apiCall('GET /api/virtual-bpts'),
    enabled,
  });
}

function useDonationMutation<Variables, Result>(call: (variables: Variables) => Promise<Result>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSettled: () => queryClient.invalidateQueries({ queryKey: donationsKey }),
  });
}

export function useCreateDonationLink() {
  return useDonationMutation((request: CreateDonationLinkRequest) =>
    apiCall('POST /api/donation-links', { body: request }),
  );
}

export function useDeleteDonationLink() {
  return useDonationMutation((id: string) => apiCall('DELETE /api/donation-links/:id', { params: { id } }));
}

/** One page of the donations received, newest first; the previous page stays shown while the next loads. */
export function useDonationHistory(page: number, pageSize: number) {
  return useQuery({
    queryKey: [...donationsKey, 'history', page, pageSize],
    queryFn: () => apiCall('GET /api/donations', { query: { page, pageSize } }),
    placeholderData: keepPreviousData,
  });
}

export function useDonationAddress() {
  return useQuery({
    queryKey: addressKey,
    queryFn: () => apiCall('GET /api/donations/lightning-address'),
  });
}

export function useSetDonationAddress() {
  return useDonationMutation((request: SetDonationAddressRequest) =>
    apiCall('PUT /api/donations/lightning-address', { body: request }),
  );
}

export function useRemoveDonationAddress() {
  return useDonationMutation(() => apiCall('DELETE /api/donations/lightning-address'));
}

/**
 * The public donation page: no session. Its path is the one the page's head asks for early
 * (`PUBLIC_EARLY_PAGES.donation`), so the early answer is taken.
 */
export function usePublicDonationLink(id: string) {
  return useQuery({
    queryKey: ['public-donation-link', id],
    queryFn: () => apiCall('GET /api/public/donation-links/:id', { params: { id }, auth: false }),
    retry: false,
  });
}

export function useCreateDonationInvoice(id: string) {
  return useMutation({
    mutationFn: (request: CreateDonationInvoiceRequest) =>
      apiCall('POST /api/public/donation-links/:id/invoices', { params: { id }, body: request, auth: false }),
  });
}
