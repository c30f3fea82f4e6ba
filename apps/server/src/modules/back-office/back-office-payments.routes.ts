import {
  ALL_COUNTRIES_ID,
  CountryReportSchema,
  OrganizationTransactionsPageSchema,
  OrganizationTransactionsQuerySchema,
  PayTransactionsRequestSchema,
  PayTransactionsResponseSchema,
  UnpaidTransactionListSchema,
} from '@rayo/shared';
import type { FastifyReply } from 'fastify';
import { z } from 'zod';
import type { Db, ReadDb } from '../../db/database.ts';
import { callerOf } from '../../http/access.ts';
import type { App } from '../../http/app-type.ts';
import {
  exportCountryReportCsv,
  getCountryReport,
  listOrganizationTransactions,
  listOrganizationUnpaidTransactions,
  payTransactions,
} from './back-office-payments.service.ts';

const OrganizationParamsSchema = z.object({ id: z.uuid() });
/** A country's id, or SPEC §3's -1 for all of them. */
const CountryParamsSchema = z.object({ id: z.coerce.number().int().min(ALL_COUNTRIES_ID).max(2_147_483_647) });

async function sendCountryReportCsv(reply: FastifyReply, db: Db, readDb: ReadDb, countryId: number) {
  const { filename, csv } = await exportCountryReportCsv(db, readDb, countryId);
  return reply
    .type('text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${filename}"`)
    .send(csv);
}

/**
 * Back office's money calls (SPEC §7): unpaid fiat, mark as paid, the ledger export, country
 * reports. The ledger export and the reports' CSV read from `readDb`; what back office pays from
 * (the unpaid list, the report on screen) reads the primary, as it reloads right after paying.
 */
export function registerBackOfficePaymentRoutes(app: App, deps: { db: Db; readDb: ReadDb }): void {
  const { db, readDb } = deps;
  const tags = ['back-office'];

  app.get(
    '/api/back-office/organization/:id/unpaid-transactions',
    {
      schema: {
        tags,
        summary: "The organization's sales whose fiat part is not paid yet, oldest first (at most 10,000)",
        params: OrganizationParamsSchema,
        response: { 200: UnpaidTransactionListSchema },
      },
    },
    async (request) => listOrganizationUnpaidTransactions(db, request.params.id),
  );

  app.post(
    '/api/back-office/pay-transactions',
    {
      schema: {
        tags,
        summary: "Marks the sales' fiat part paid, all of them or none",
        body: PayTransactionsRequestSchema,
        response: { 200: PayTransactionsResponseSchema },
      },
    },
    async (request) => ({
      paid: await payTransactions(callerOf(request), db, request.body),
    }),
  );

  app.get(
    '/api/back-office/organization/:id/transactions',
    {
      schema: {
        tags,
        summary: "A page of the organization's whole ledger, oldest first; X-Total-Count holds its size",
        params: OrganizationParamsSchema,
        querystring: OrganizationTransactionsQuerySchema,
        response: { 200: OrganizationTransactionsPageSchema },
      },
    },
    async (request, reply) => {
      const page = await listOrganizationTransactions(db, readDb, request.params.id, request.query);
      return reply.header('x-total-count', String(page.total)).send(page.transactions);
    },
  );

  app.get(
    '/api/back-office/country/report',
    { schema: { tags, summary: 'The report of all countries', response: { 200: CountryReportSchema } } },
    async () => getCountryReport(db, ALL_COUNTRIES_ID),
  );

  app.get(
    '/api/back-office/country/:id/report',
    {
      schema: {
        tags,
        summary: "A country's report (-1: all countries)",
        params: CountryParamsSchema,
        response: { 200: CountryReportSchema },
      },
    },
    async (request) => getCountryReport(db, request.params.id),
  );

  app.get(
    '/api/back-office/country/report/csv',
    { schema: { tags, summary: 'The report of all countries as CSV', produces: ['text/csv'] } },
    async (_request, reply) => sendCountryReportCsv(reply, db, readDb, ALL_COUNTRIES_ID),
  );

  app.get(
    '/api/back-office/country/:id/report/csv',
    {
      schema: {
        tags,
        summary: "A country's report as CSV (-1: all countries)",
        params: CountryParamsSchema,
        produces: ['text/csv'],
      },
    },
    async (request, reply) => sendCountryReportCsv(reply, db, readDb, request.params.id),
  );
}
