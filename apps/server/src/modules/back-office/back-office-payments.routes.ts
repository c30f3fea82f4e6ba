import { ALL_COUNTRIES_ID } from '@rayo/shared';
import type { FastifyReply } from 'fastify';
import type { Db, ReadDb } from '../../db/database.ts';
import { callerOf } from '../../http/access.ts';
import type { App } from '../../http/app-type.ts';
import { registerCall } from '../../http/contract.ts';
import {
  exportCountryReportCsv,
  getCountryReport,
  listOrganizationTransactions,
  listOrganizationUnpaidTransactions,
  payTransactions,
} from './back-office-payments.service.ts';

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

  registerCall(app, 'GET /api/back-office/organization/:id/unpaid-transactions', async (request) =>
    listOrganizationUnpaidTransactions(db, request.params.id),
  );

  registerCall(app, 'POST /api/back-office/pay-transactions', async (request) => ({
    paid: await payTransactions(callerOf(request), db, request.body),
  }));

  registerCall(app, 'GET /api/back-office/organization/:id/transactions', async (request, reply) => {
    const page = await listOrganizationTransactions(db, readDb, request.params.id, request.query);
    reply.header('x-total-count', String(page.total));
    return page.transactions;
  });

  registerCall(app, 'GET /api/back-office/country/report', async () => getCountryReport(db, ALL_COUNTRIES_ID));

  registerCall(app, 'GET /api/back-office/country/:id/report', async (request) =>
    getCountryReport(db, request.params.id),
  );

  registerCall(app, 'GET /api/back-office/country/report/csv', async (_request, reply) =>
    sendCountryReportCsv(reply, db, readDb, ALL_COUNTRIES_ID),
  );

  registerCall(app, 'GET /api/back-office/country/:id/report/csv', async (request, reply) =>
    sendCountryReportCsv(reply, db, readDb, request.params.id),
  );
}
