import {
  LnurlErrorSchema,
  LnurlPayCallbackQuerySchema,
  LnurlPayInvoiceSchema,
  LnurlPayRequestSchema,
} from '@rayo/shared';
import type { FastifyReply } from 'fastify';
import { z } from 'zod';
import type { App } from '../../http/app-type.ts';
import { lnurlAnswer } from '../../http/lnurl-answer.ts';
import { clientOf, enforceSharedLimit, type RateLimitDeps } from '../../http/rate-limit.ts';
import { donationInvoices } from './donation-limits.ts';
import {
  type DonationDeps,
  describeDonationTarget,
  findDonationAddressToPay,
  findDonationLinkToPay,
  type PayTarget,
  payDonationTarget,
} from './donations.service.ts';

/** Any text: an unknown id or name gets an LNURL ERROR answer, not a validation error. */
const IdParamsSchema = z.object({ id: z.string().max(64) });
const NameParamsSchema = z.object({ name: z.string().max(128) });

/** The LNURL-pay service of donation links (LUD-06, LUD-09, LUD-12) and Lightning addresses (LUD-16). */
export function registerLnurlPayRoutes(app: App, deps: DonationDeps & RateLimitDeps): void {
  const pay = async (
    target: PayTarget,
    client: string,
    reply: FastifyReply,
    query: { amount?: string; comment?: string },
  ) => {
    await enforceSharedLimit(deps, reply, donationInvoices, target.link.id, client);
    return payDonationTarget(deps, target, query);
  };

  app.get(
    '/api/lnurlp/:id',
    {
      schema: {
        tags: ['lnurl'],
        params: IdParamsSchema,
        response: { 200: z.union([LnurlPayRequestSchema, LnurlErrorSchema]) },
      },
    },
    async (request, reply) =>
      lnurlAnswer(reply, async () =>
        describeDonationTarget(deps, await findDonationLinkToPay(deps, request.params.id)),
      ),
  );

  app.get(
    '/api/lnurlp/:id/callback',
    {
      schema: {
        tags: ['lnurl'],
        params: IdParamsSchema,
        querystring: LnurlPayCallbackQuerySchema,
        response: { 200: z.union([LnurlPayInvoiceSchema, LnurlErrorSchema]) },
      },
    },
    async (request, reply) =>
      lnurlAnswer(reply, async () =>
        pay(await findDonationLinkToPay(deps, request.params.id), clientOf(request), reply, request.query),
      ),
  );

  app.get(
    '/.well-known/lnurlp/:name',
    {
      schema: {
        tags: ['lnurl'],
        params: NameParamsSchema,
        response: { 200: z.union([LnurlPayRequestSchema, LnurlErrorSchema]) },
      },
    },
    async (request, reply) =>
      lnurlAnswer(reply, async () =>
        describeDonationTarget(deps, await findDonationAddressToPay(deps, request.params.name)),
      ),
  );

  app.get(
    '/api/lnurlp/addresses/:name/callback',
    {
      schema: {
        tags: ['lnurl'],
        params: NameParamsSchema,
        querystring: LnurlPayCallbackQuerySchema,
        response: { 200: z.union([LnurlPayInvoiceSchema, LnurlErrorSchema]) },
      },
    },
    async (request, reply) =>
      lnurlAnswer(reply, async () =>
        pay(await findDonationAddressToPay(deps, request.params.name), clientOf(request), reply, request.query),
      ),
  );
}
