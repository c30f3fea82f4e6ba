import {
  DevnetPayResponseSchema,
  type DevnetWithdrawLinkRequest,
  DevnetWithdrawLinkRequestSchema,
  DevnetWithdrawLinkSchema,
} from '@rayo/shared';
import { useMutation } from '@tanstack/react-query';
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
