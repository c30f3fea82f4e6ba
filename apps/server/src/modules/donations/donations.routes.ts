import {
  CreateDonationInvoiceRequestSchema,
  CreateDonationLinkRequestSchema,
  DonationAddressAnswerSchema,
  DonationHistoryQuerySchema,
  DonationHistorySchema,
  DonationInvoiceSchema,
  DonationLinkListSchema,
  DonationLinkSchema,
  PublicDonationLinkSchema,
  SetDonationAddressRequestSchema,
} from '@rayo/shared';
import { z } from 'zod';
import { callerOf } from '../../http/access.ts';
import type { App } from '../../http/app-type.ts';
import { clientOf, enforceSharedLimit, type RateLimitDeps } from '../../http/rate-limit.ts';
import { donationInvoices } from './donation-limits.ts';
import {
  createDonationInvoice,
  createDonationLink,
  type DonationDeps,
  deleteDonationLink,
  findDonationLinkToPay,
  getDonationAddress,
  getPublicDonationLink,
  listDonationLinks,
  listDonations,
  removeDonationAddress,
  setDonationAddress,
} from './donations.service.ts';

const IdParamsSchema = z.object({ id: z.uuid() });

/** Donation links, their history and the Lightning address (Integrations), and the public donation page. */
export function registerDonationRoutes(app: App, deps: DonationDeps & RateLimitDeps): void {
  app.get(
    '/api/donation-links',
    { schema: { tags: ['donations'], response: { 200: DonationLinkListSchema } } },
    async (request) => listDonationLinks(deps, callerOf(request)),
  );

  app.post(
    '/api/donation-links',
    { schema: { tags: ['donations'], body: CreateDonationLinkRequestSchema, response: { 201: DonationLinkSchema } } },
    async (request, reply) => reply.status(201).send(await createDonationLink(deps, callerOf(request), request.body)),
  );

  app.delete(
    '/api/donation-links/:id',
    { schema: { tags: ['donations'], params: IdParamsSchema } },
    async (request, reply) => {
      await deleteDonationLink(deps, callerOf(request), request.params.id);
      return reply.status(204).send();
    },
  );

  app.get(
    '/api/donations',
    {
      schema: {
        tags: ['donations'],
        querystring: DonationHistoryQuerySchema,
        response: { 200: DonationHistorySchema },
      },
    },
    async (request) => listDonations(deps, callerOf(request), request.query),
  );

  app.get(
    '/api/donations/lightning-address',
    { schema: { tags: ['donations'], response: { 200: DonationAddressAnswerSchema } } },
    async (request) => getDonationAddress(deps, callerOf(request)),
  );

  app.put(
    '/api/donations/lightning-address',
    {
      schema: {
        tags: ['donations'],
        body: SetDonationAddressRequestSchema,
        response: { 200: DonationAddressAnswerSchema },
      },
    },
    async (request) => setDonationAddress(deps, callerOf(request), request.body),
  );

  app.delete('/api/donations/lightning-address', { schema: { tags: ['donations'] } }, async (request, reply) => {
    await removeDonationAddress(deps, callerOf(request));
    return reply.status(204).send();
  });

  app.get(
    '/api/public/donation-links/:id',
    { schema: { tags: ['donations'], params: IdParamsSchema, response: { 200: PublicDonationLinkSchema } } },
    async (request) => getPublicDonationLink(deps, await findDonationLinkToPay(deps, request.params.id)),
  );

  app.post(
    '/api/public/donation-links/:id/invoices',
    {
      schema: {
        tags: ['donations'],
        params: IdParamsSchema,
        body: CreateDonationInvoiceRequestSchema,
        response: { 201: DonationInvoiceSchema },
      },
    },
    async (request, reply) => {
      const target = await findDonationLinkToPay(deps, request.params.id);
      await enforceSharedLimit(deps, reply, donationInvoices, target.link.id, clientOf(request));
      return reply.status(201).send(await createDonationInvoice(deps, target, request.body));
    },
  );
}
