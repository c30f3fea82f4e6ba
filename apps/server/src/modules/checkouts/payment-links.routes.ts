import { CreatePaymentLinkRequestSchema, PaymentLinkListSchema, PaymentLinkSchema } from '@rayo/shared';
import { z } from 'zod';
import { callerOf } from '../../http/access.ts';
import type { App } from '../../http/app-type.ts';
import type { InvoiceDeps } from '../invoices/invoices.service.ts';
import {
  createPaymentLink,
  deletePaymentLink,
  listAccountPaymentLinks,
  listPaymentLinks,
} from './payment-links.service.ts';

const IdParamsSchema = z.object({ id: z.uuid() });

export function registerPaymentLinkRoutes(app: App, deps: Pick<InvoiceDeps, 'db' | 'config'>): void {
  const { db } = deps;

  app.get(
    '/api/virtual-bpts/:id/payment-links',
    { schema: { tags: ['payment-links'], params: IdParamsSchema, response: { 200: PaymentLinkListSchema } } },
    async (request) => listPaymentLinks(db, callerOf(request), request.params.id),
  );

  app.post(
    '/api/virtual-bpts/:id/payment-links',
    {
      schema: {
        tags: ['payment-links'],
        params: IdParamsSchema,
        body: CreatePaymentLinkRequestSchema,
        response: { 201: PaymentLinkSchema },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await createPaymentLink(deps, callerOf(request), request.params.id, request.body)),
  );

  app.delete(
    '/api/payment-links/:id',
    { schema: { tags: ['payment-links'], params: IdParamsSchema } },
    async (request, reply) => {
      await deletePaymentLink(db, callerOf(request), request.params.id);
      return reply.status(204).send();
    },
  );

  app.get(
    '/api/accounts/:id/payment-links',
    { schema: { tags: ['payment-links'], params: IdParamsSchema, response: { 200: PaymentLinkListSchema } } },
    async (request) => listAccountPaymentLinks(db, callerOf(request), request.params.id),
  );
}
