import {
  DevnetChainTipSchema,
  DevnetMineResponseSchema,
  DevnetPayResponseSchema,
  DevnetSendResponseSchema,
  type DevnetWithdrawLinkRequest,
  DevnetWithdrawLinkRequestSchema,
  DevnetWithdrawLinkSchema,
} from '@rayo/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from './client.ts';

export function useDevnetPay() {
  return useMutation({
    mutationFn: (paymentRequest: string) =>
      apiRequest('/devnet/pay', DevnetPayResponseSchema, { method: 'POST', body: { paymentRequest }, auth: false }),
  });
}

/** A one-time LNURL-withdraw link from the devnet, which pays like a Bolt Card tap. */
export function useDevnetWithdrawLink() {
  return useMutation({
    mutationFn: (request: DevnetWithdrawLinkRequest) =>
      apiRequest('/devnet/lnurl-withdraw', DevnetWithdrawLinkSchema, {
        method: 'POST',
        body: DevnetWithdrawLinkRequestSchema.parse(request),
        auth: false,
      }),
  });
}

/** The devnet chain's height; fails with 404 when the server watches a real chain instead. */
export function useDevnetChainTip() {
  return useQuery({
    queryKey: ['devnet-chain'],
    queryFn: () => apiRequest('/devnet/chain', DevnetChainTipSchema, { auth: false }),
    retry: false,
  });
}

export function useDevnetMine() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (blocks: number) =>
      apiRequest('/devnet/mine', DevnetMineResponseSchema, { method: 'POST', body: { blocks }, auth: false }),
    onSuccess: (tip) => queryClient.setQueryData(['devnet-chain'], tip),
  });
}

/** The devnet wallet pays an on-chain address; the payment waits for the next mined block. */
export function useDevnetSendOnchain() {
  return useMutation({
    mutationFn: (payment: { address: string; sats: number }) =>
      apiRequest('/devnet/send-onchain', DevnetSendResponseSchema, { method: 'POST', body: payment, auth: false }),
  });
}
