import {
  CreateRefundRequestSchema,
  LnurlErrorSchema,
  LnurlOkSchema,
  LnurlWithdrawCallbackQuerySchema,
  LnurlWithdrawOfferSchema,
  MFA_CODE_HEADER,
  RefundSchema,
  SaleRefundsSchema,
} from '@rayo/shared';
import { z } from 'zod';
import { createChainBackend } from '../../adapters/chain/index.ts';
import { callerOf } from '../../http/access.ts';
import type { App } from '../../http/app-type.ts';
import { lnurlAnswer } from '../../http/lnurl-answer.ts';
import { requireMfaCode } from '../../http/mfa-code.ts';
import { clientOf, enforceRateLimit, type RateLimitDeps, type RateLimitRule } from '../../http/rate-limit.ts';
import type { MfaDeps } from '../mfa/mfa-codes.ts';
import {
  describeRefundLink,
  listRefundsOfSale,
  type RefundDeps,
  refundSale,
  withdrawRefund,
} from './refunds.service.ts';

const tags = ['refunds'];
const SaleParamsSchema = z.object({ id: z.uuid() });
/** Any text: an unknown k1 gets an LNURL ERROR answer, not a validation error. */
const K1ParamsSchema = z.object({ k1: z.string().max(128) });
/** A k1 is 256 random bits; this only keeps one address from hammering the callback. */
const refundCallbacksPerIp: RateLimitRule = { name: 'refund-lnurlw-ip', limit: 30, windowSeconds: 60 };

/** Refunds of a sale (admins make them, managers see them) and the refund links' LUD-03 service. */
export function registerRefundRoutes(app: App, deps: RefundDeps & MfaDeps & RateLimitDeps): void {
  const chain = createChainBackend(deps.config, deps.db);
  app.get(
    '/api/transactions/:id/refunds',
    {
      schema: {
        tags,
        summary:
          "A sale's refunds, by its transaction's or its invoice's id, and what may still be refunded; the refund links only for admins",
        params: SaleParamsSchema,
        response: { 200: SaleRefundsSchema },
      },
    },
    async (request) => listRefundsOfSale(deps, callerOf(request), request.params.id),
  );

  app.post(
    '/api/transactions/:id/refunds',
    {
      preHandler: requireMfaCode(deps),
      schema: {
        tags,
        summary: `Refunds a sale in full or in part, by its transaction's or its invoice's id: to the customer's Lightning invoice or address, or Bitcoin address (sent on-chain by the platform wallet), in destination, or else through a refund link (LNURL-withdraw) the answer carries. The same idempotencyKey again answers the same refund. 400 InvalidRefundInvoice, InvalidLightningAddress, LightningAddressUnreachable, LightningAddressNotPayable, InvalidOnchainAddress, OnchainAddressWrongNetwork, RefundBelowDust; 409 SaleNotPaid, RefundExceedsSale, OnchainRefundUnavailable; 403 OrganizationBlocked. With MFA on, a code in the ${MFA_CODE_HEADER} header.`,
        params: SaleParamsSchema,
        body: CreateRefundRequestSchema,
        response: { 200: RefundSchema },
      },
    },
    async (request) => refundSale(callerOf(request), { ...deps, chain }, request.params.id, request.body, request.log),
  );

  app.get(
    '/api/lnurlw/refunds/:k1',
    {
      schema: {
        tags: ['lnurl'],
        params: K1ParamsSchema,
        response: { 200: z.union([LnurlWithdrawOfferSchema, LnurlErrorSchema]) },
      },
    },
    async (request, reply) => lnurlAnswer(reply, () => describeRefundLink(deps, request.params.k1)),
  );

  app.get(
    '/api/lnurlw/refunds/:k1/callback',
    {
      schema: {
        tags: ['lnurl'],
        params: K1ParamsSchema,
        querystring: LnurlWithdrawCallbackQuerySchema,
        response: { 200: z.union([LnurlOkSchema, LnurlErrorSchema]) },
      },
    },
    async (request, reply) =>
      lnurlAnswer(reply, async () => {
        await enforceRateLimit(deps, reply, refundCallbacksPerIp, clientOf(request));
        return withdrawRefund(deps, request.params.k1, request.query, request.log);
      }),
  );
}
