import {
  type CreateDonationInvoiceRequest,
  type CreateDonationLinkRequest,
  DonationAddressAnswerSchema,
  DonationHistorySchema,
  DonationInvoiceSchema,
  DonationLinkListSchema,
  DonationLinkSchema,
  PublicDonationLinkSchema,
  type SetDonationAddressRequest,
  VirtualBptListSchema,
} from '@rayo/shared';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { apiRequest } from './client.ts';

const donationsKey = ['donations'] as const;
const linksKey = [...donationsKey, 'links'] as const;
const addressKey = [...donationsKey, 'address'] as const;

export function useDonationLinks() {
  return useQuery({ queryKey: linksKey, queryFn: () => apiRequest('/donation-links', DonationLinkListSchema) });
}

/** The virtual BPTs a donation link can sell through. */
export function useVirtualBptChoices(enabled: boolean) {
  return useQuery({
    queryKey: ['virtual-bpts'],
    queryFn: () => apiRequest('/virtual-bpts', VirtualBptListSchema),
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
    apiRequest('/donation-links', DonationLinkSchema, { method: 'POST', body: request }),
  );
}

export function useDeleteDonationLink() {
  return useDonationMutation((id: string) =>
    apiRequest(`/donation-links/${encodeURIComponent(id)}`, z.undefined(), { method: 'DELETE' }),
  );
}

/** One page of the donations received, newest first; the previous page stays shown while the next loads. */
export function useDonationHistory(page: number, pageSize: number) {
  return useQuery({
    queryKey: [...donationsKey, 'history', page, pageSize],
    queryFn: () => apiRequest(`/donations?page=${page}&pageSize=${pageSize}`, DonationHistorySchema),
    placeholderData: keepPreviousData,
  });
}

export function useDonationAddress() {
  return useQuery({
    queryKey: addressKey,
    queryFn: () => apiRequest('/donations/lightning-address', DonationAddressAnswerSchema),
  });
}

export function useSetDonationAddress() {
  return useDonationMutation((request: SetDonationAddressRequest) =>
    apiRequest('/donations/lightning-address', DonationAddressAnswerSchema, { method: 'PUT', body: request }),
  );
}

export function useRemoveDonationAddress() {
  return useDonationMutation(() => apiRequest('/donations/lightning-address', z.undefined(), { method: 'DELETE' }));
}

/** The public donation page: no session. */
export function usePublicDonationLink(id: string) {
  return useQuery({
    queryKey: ['public-donation-link', id],
    queryFn: () =>
      apiRequest(`/public/donation-links/${encodeURIComponent(id)}`, PublicDonationLinkSchema, { auth: false }),
    retry: false,
  });
}

export function useCreateDonationInvoice(id: string) {
  return useMutation({
    mutationFn: (request: CreateDonationInvoiceRequest) =>
      apiRequest(`/public/donation-links/${encodeURIComponent(id)}/invoices`, DonationInvoiceSchema, {
        method: 'POST',
        body: request,
        auth: false,
      }),
  });
}
