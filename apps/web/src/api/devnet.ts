import { type DevnetWithdrawLinkRequest, DevnetWithdrawLinkRequestSchema } from '@rayo/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiCall } from './client.ts';

export function useDevnetPay() {
  return useMutation({
    mutationFn: (paymentRequest: string) => apiCall('POST /api/devnet/pay', { body: { paymentRequest }, auth: false }),
  });
}

/** A one-time LNURL-withdraw link from the devnet, which pays like a Bolt Card tap. */
export function useDevnetWithdrawLink() {
  return useMutation({
    mutationFn: (request: DevnetWithdrawLinkRequest) =>
      apiCall('POST /api/devnet/lnurl-withdraw', {
        body: DevnetWithdrawLinkRequestSchema.parse(request),
        auth: false,
      }),
  });
}

/** The devnet chain's height; fails with 404 when the server watches a real chain instead. */
export function useDevnetChainTip() {
  return useQuery({
    queryKey: ['devnet-chain'],
    queryFn: () => apiCall('GET /api/devnet/chain', { auth: false }),
    retry: false,
  });
}

export function useDevnetMine() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (blocks: number) => apiCall('POST /api/devnet/mine', { body: { blocks }, auth: false }),
    onSuccess: (tip) => queryClient.setQueryData(['devnet-chain'], tip),
  });
}

/** The devnet wallet pays an on-chain address; the payment waits for the next mined block. */
export function useDevnetSendOnchain() {
  return useMutation({
    mutationFn: (payment: { address: string; sats: number }) =>
      apiCall('POST /api/devnet/send-onchain', { body: payment, auth: false }),
  });
}
