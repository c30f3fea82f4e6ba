import {
  AccountFilterSchema,
  LedgerQuerySchema,
  PeriodQuerySchema,
  SeriesQuerySchema,
  TransactionPageQuerySchema,
  TransactionPageSchema,
  TransactionSeriesSchema,
  TransactionSumsSchema,
} from '@rayo/shared';
import { z } from 'zod';
import type { Db, ReadDb } from '../../db/database.ts';
import { callerOf } from '../../http/access.ts';
import type { App } from '../../http/app-type.ts';
import { chartTransactions, exportTransactionsCsv, listTransactions, sumTransactions } from './dashboard.service.ts';

const PeriodOnlyQuerySchema = PeriodQuerySchema.omit({ account: true });
// SPEC §7: `/sum/all` is the path form of `account=all`, every account the caller may see.
const AccountParamsSchema = z.object({ account: AccountFilterSchema.unwrap() });

/** Every dashboard read but who may see what goes to `readDb`, the replica when there is one. */
export function registerDashboardRoutes(app: App, deps: { db: Db; readDb: ReadDb }): void {
  app.get(
    '/api/dashboard/transactions',
    {
      schema: {
        tags: ['dashboard'],
        summary: 'A page of the ledger, newest first, with the total for the filter',
        querystring: TransactionPageQuerySchema,
        response: { 200: TransactionPageSchema },
      },
    },
    async (request) => listTransactions(deps.db, deps.readDb, callerOf(request), request.query),
  );

  app.get(
    '/api/dashboard/transactions/sum',
    {
      schema: {
        tags: ['dashboard'],
        summary: 'SPEC §3 transaction metrics of a period',
        querystring: PeriodQuerySchema,
        response: { 200: TransactionSumsSchema },
      },
    },
    async (request) => sumTransactions(deps.db, deps.readDb, callerOf(request), request.query),
  );

  app.get(
    '/api/dashboard/transactions/sum/:account',
    {
      schema: {
        tags: ['dashboard'],
        summary: 'SPEC §3 transaction metrics of a period for one account, or `all`',
        params: AccountParamsSchema,
        querystring: PeriodOnlyQuerySchema,
        response: { 200: TransactionSumsSchema },
      },
    },
    async (request) =>
      sumTransactions(deps.db, deps.readDb, callerOf(request), { ...request.query, account: request.params.account }),
  );

  app.get(
    '/api/dashboard/transactions/series',
    {
      schema: {
        tags: ['dashboard'],
        summary: 'Sales per hour, day or month in the organization time zone, and per account',
        querystring: SeriesQuerySchema,
        response: { 200: TransactionSeriesSchema },
      },
    },
    async (request) => chartTransactions(deps.db, deps.readDb, callerOf(request), request.query),
  );

  app.get(
    '/api/dashboard/transactions/csv',
    {
      schema: {
        tags: ['dashboard'],
        summary: 'The whole filtered ledger as CSV (RFC 4180, header row), streamed',
        querystring: LedgerQuerySchema,
        produces: ['text/csv'],
      },
    },
    async (request, reply) => {
      const csv = await exportTransactionsCsv(deps.db, deps.readDb, callerOf(request), request.query);
      // A client that goes away mid-download must stop the COPY and free its connection.
      reply.raw.on('close', () => {
        if (!csv.stream.readableEnded) csv.stream.destroy();
      });
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${csv.filename}"`)
        .send(csv.stream);
    },
  );
}
