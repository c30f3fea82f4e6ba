import {
  LnurlErrorSchema,
  LnurlOkSchema,
  LnurlWithdrawCallbackQuerySchema,
  LnurlWithdrawOfferSchema,
} from '@rayo/shared';
import { z } from 'zod';
import { createChainBackend } from '../../adapters/chain/index.ts';
import { callerOf } from '../../http/access.ts';
import type { App } from '../../http/app-type.ts';
import { registerCall } from '../../http/contract.ts';
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

/** Any text: an unknown k1 gets an LNURL ERROR answer, not a validation error. */
const K1ParamsSchema = z.object({ k1: z.string().max(128) });
/** A k1 is 256 random bits; this only keeps one address from hammering the callback. */
const refundCallbacksPerIp: RateLimitRule = { name: 'refund-lnurlw-ip', limit: 30, windowSeconds: 60 };

/** Refunds of a sale (admins make them, managers see them) and the refund links' LUD-03 service. */
export function registerRefundRoutes(app: App, deps: RefundDeps & MfaDeps & RateLimitDeps): void {
  const chain = createChainBackend(deps.config, deps.db);
  registerCall(app, 'GET /api/transactions/:id/refunds', async (request) =>
    listRefundsOfSale(deps, callerOf(request), request.params.id),
  );

  registerCall(
    app,
    'POST /api/transactions/:id/refunds',
    async (request) => refundSale(callerOf(request), { ...deps, chain }, request.params.id, request.body, request.log),
    { preHandler: [requireMfaCode(deps)] },
  );

  // LNURL-withdraw answers a refusal as 200 `{ status: 'ERROR', reason }` (LUD-01), not the
  // contract's `{ code, message }`, so the refund links' service stays registered here.
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
