import { DevnetPayResponseSchema, MsatSchema } from '@rayo/shared';
import { useMutation } from '@tanstack/react-query';
import { z } from 'zod';
import { apiRequest } from './client.ts';

/** The devnet's one-time LNURL-withdraw link, which pays like a Bolt Card tap. */
const DevnetWithdrawLinkSchema = z.object({ lnurl: z.string() });

export function useDevnetPay() {
  return useMutation({
    mutationFn: (paymentRequest: string) =>
      apiRequest('/devnet/pay', DevnetPayResponseSchema, { method: 'POST', body: { paymentRequest }, auth: false }),
  });
}

export function useDevnetWithdrawLink() {
  return useMutation({
    mutationFn: (maxMsat: number | undefined) =>
      apiRequest('/devnet/lnurl-withdraw', DevnetWithdrawLinkSchema, {
        method: 'POST',
        body: maxMsat === undefined ? {} : { maxMsat: MsatSchema.parse(maxMsat) },
        auth: false,
      }),
  });
}
