import {
  BptListSchema,
  BptSchema,
  CreateBptRequestSchema,
  CreateInvoiceRequestSchema,
  InvoiceSchema,
  LatestTransactionsQuerySchema,
  TerminalInfoSchema,
  TerminalSaleListSchema,
  UpdateBptRequestSchema,
} from '@rayo/shared';
import { z } from 'zod';
import { callerOf, callerToRecheckOf } from '../../http/access.ts';
import type { App } from '../../http/app-type.ts';
import { clientOf, enforceSharedLimit, type RateLimitDeps, type SharedLimitRule } from '../../http/rate-limit.ts';
import { createInvoiceForBpt, createInvoiceForCallerBpt, type InvoiceDeps } from '../invoices/invoices.service.ts';
import { listLatestTransactionsOfBpt } from '../transactions/transactions.service.ts';
import {
  createBpt,
  deleteBpt,
  findCallerBpt,
  findSharedBpt,
  getTerminalInfo,
  listBpts,
  listSharedTerminalSales,
  rotateShareToken,
  updateBpt,
} from './bpts.service.ts';

const IdParamsSchema = z.object({ id: z.uuid() });
const TokenParamsSchema = z.object({ token: z.string().min(16).max(64) });

/**
 * A shareable terminal charges without a session. Each caller gets a budget on each link (a
 * cashier charges every few seconds at most), and each link one in all, so that neither one
 * address nor many can flood the node with invoices through a link that leaked; once addresses
 * have spent the link's budget, the cashier still charges within a fair share of it. A signed-in
 * cashier charges through `/api/bpts/:id/invoices`, which none of this counts.
 */
const sharedInvoices: SharedLimitRule = {
  name: 'terminal-invoices',
  perCaller: 30,
  perLink: 120,
  guaranteed: 6,
  windowSeconds: 60,
};

export function registerBptRoutes(app: App, deps: InvoiceDeps & RateLimitDeps): void {
  const { db } = deps;

  app.get('/api/bpts', { schema: { tags: ['bpts'], response: { 200: BptListSchema } } }, async (request) =>
    listBpts(db, callerOf(request)),
  );

  app.post(
    '/api/bpts',
    {
      schema: { tags: ['bpts'], body: CreateBptRequestSchema, response: { 201: BptSchema } },
    },
    async (request, reply) => reply.status(201).send(await createBpt(db, callerOf(request), request.body)),
  );

  app.patch(
    '/api/bpts/:id',
    {
      schema: { tags: ['bpts'], params: IdParamsSchema, body: UpdateBptRequestSchema, response: { 200: BptSchema } },
    },
    async (request) => updateBpt(db, callerOf(request), request.params.id, request.body),
  );

  app.delete('/api/bpts/:id', { schema: { tags: ['bpts'], params: IdParamsSchema } }, async (request, reply) => {
    await deleteBpt(db, callerOf(request), request.params.id);
    return reply.status(204).send();
  });

  app.post(
    '/api/bpts/:id/share-token',
    {
      schema: {
        tags: ['bpts'],
        params: IdParamsSchema,
        description: 'Issues a new share link; the old one stops working.',
        response: { 200: BptSchema },
      },
    },
    async (request) => rotateShareToken(db, callerOf(request), request.params.id),
  );

  app.get(
    '/api/bpts/:id/terminal',
    {
      schema: { tags: ['terminal'], params: IdParamsSchema, response: { 200: TerminalInfoSchema } },
    },
    async (request) => getTerminalInfo(deps, await findCallerBpt(db, callerOf(request), request.params.id)),
  );

  app.post(
    '/api/bpts/:id/invoices',
    {
      schema: {
        tags: ['terminal'],
        params: IdParamsSchema,
        body: CreateInvoiceRequestSchema,
        response: { 201: InvoiceSchema },
      },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send(await createInvoiceForCallerBpt(deps, callerToRecheckOf(request), request.params.id, request.body)),
  );

  app.get(
    '/api/bpts/:id/transactions',
    {
      schema: {
        tags: ['terminal'],
        params: IdParamsSchema,
        querystring: LatestTransactionsQuerySchema,
        response: { 200: TerminalSaleListSchema },
      },
    },
    async (request) => {
      const bpt = await findCallerBpt(db, callerOf(request), request.params.id);
      return listLatestTransactionsOfBpt(db, bpt.id, request.query.limit);
    },
  );

  app.get(
    '/api/terminal/:token',
    {
      schema: { tags: ['terminal'], params: TokenParamsSchema, response: { 200: TerminalInfoSchema } },
    },
    async (request) => getTerminalInfo(deps, await findSharedBpt(db, request.params.token)),
  );

  app.post(
    '/api/terminal/:token/invoices',
    {
      schema: {
        tags: ['terminal'],
        params: TokenParamsSchema,
        body: CreateInvoiceRequestSchema,
        response: { 201: InvoiceSchema },
      },
    },
    async (request, reply) => {
      const bpt = await findSharedBpt(db, request.params.token);
      await enforceSharedLimit(deps, reply, sharedInvoices, bpt.id, clientOf(request));
      return reply.status(201).send(await createInvoiceForBpt(deps, bpt, request.body));
    },
  );

  app.get(
    '/api/terminal/:token/transactions',
    {
      schema: {
        tags: ['terminal'],
        params: TokenParamsSchema,
        querystring: LatestTransactionsQuerySchema,
        response: { 200: TerminalSaleListSchema },
      },
    },
    async (request) => listSharedTerminalSales(deps, request.params.token, request.query.limit),
  );
}
