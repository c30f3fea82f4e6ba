import type {
  CreateDonationInvoiceRequest,
  CreateDonationLinkRequest,
  DonationAddressAnswer,
  DonationHistory,
  DonationInvoice,
  DonationLink,
  PublicDonationLink,
  SetDonationAddressRequest,
  VirtualBpt,
} from '@rayo/shared';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from './client.ts';
import { publicEarlyPath } from './early-requests.ts';

const donationsKey = ['donations'] as const;
const linksKey = [...donationsKey, 'links'] as const;
const addressKey = [...donationsKey, 'address'] as const;

export function useDonationLinks() {
  return useQuery({ queryKey: linksKey, queryFn: () => apiRequest<DonationLink[]>('/donation-links') });
}

/** The virtual BPTs a donation link can sell through. */
export function useVirtualBptChoices(enabled: boolean) {
  return useQuery({
    queryKey: ['virtual-bpts'],
    queryFn: () => apiRequest<VirtualBpt[]>('/virtual-bpts'),
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
    apiRequest<DonationLink>('/donation-links', { method: 'POST', body: request }),
  );
}

export function useDeleteDonationLink() {
  return useDonationMutation((id: string) =>
    apiRequest<void>(`/donation-links/${encodeURIComponent(id)}`, { method: 'DELETE' }),
  );
}

/** One page of the donations received, newest first; the previous page stays shown while the next loads. */
export function useDonationHistory(page: number, pageSize: number) {
  return useQuery({
    queryKey: [...donationsKey, 'history', page, pageSize],
    queryFn: () => apiRequest<DonationHistory>(`/donations?page=${page}&pageSize=${pageSize}`),
    placeholderData: keepPreviousData,
  });
}

export function useDonationAddress() {
  return useQuery({
    queryKey: addressKey,
    queryFn: () => apiRequest<DonationAddressAnswer>('/donations/lightning-address'),
  });
}

export function useSetDonationAddress() {
  return useDonationMutation((request: SetDonationAddressRequest) =>
    apiRequest<DonationAddressAnswer>('/donations/lightning-address', { method: 'PUT', body: request }),
  );
}

export function useRemoveDonationAddress() {
  return useDonationMutation(() => apiRequest<void>('/donations/lightning-address', { method: 'DELETE' }));
}

/** The public donation page: no session. */
export function usePublicDonationLink(id: string) {
  return useQuery({
    queryKey: ['public-donation-link', id],
    queryFn: () => apiRequest<PublicDonationLink>(publicEarlyPath('donation', id), { auth: false }),
    retry: false,
  });
}

export function useCreateDonationInvoice(id: string) {
  return useMutation({
    mutationFn: (request: CreateDonationInvoiceRequest) =>
      apiRequest<DonationInvoice>(`/public/donation-links/${encodeURIComponent(id)}/invoices`, {
        method: 'POST',
        body: request,
        auth: false,
      }),
  });
}
