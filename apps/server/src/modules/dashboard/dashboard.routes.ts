import type { Db, ReadDb } from '../../db/database.ts';
import { callerOf } from '../../http/access.ts';
import type { App } from '../../http/app-type.ts';
import { registerCall } from '../../http/contract.ts';
import { sendCsvStream } from '../../http/upload.ts';
import { chartTransactions, exportTransactionsCsv, listTransactions, sumTransactions } from './dashboard.service.ts';

/** Every dashboard read but who may see what goes to `readDb`, the replica when there is one. */
export function registerDashboardRoutes(app: App, deps: { db: Db; readDb: ReadDb }): void {
  registerCall(app, 'GET /api/dashboard/transactions', async (request) =>
    listTransactions(deps.db, deps.readDb, callerOf(request), request.query),
  );

  registerCall(app, 'GET /api/dashboard/transactions/sum', async (request) =>
    sumTransactions(deps.db, deps.readDb, callerOf(request), request.query),
  );

  registerCall(app, 'GET /api/dashboard/transactions/sum/:account', async (request) =>
    sumTransactions(deps.db, deps.readDb, callerOf(request), { ...request.query, account: request.params.account }),
  );

  registerCall(app, 'GET /api/dashboard/transactions/series', async (request) =>
    chartTransactions(deps.db, deps.readDb, callerOf(request), request.query),
  );

  registerCall(app, 'GET /api/dashboard/transactions/csv', async (request, reply) => {
    return sendCsvStream(reply, await exportTransactionsCsv(deps.db, deps.readDb, callerOf(request), request.query));
  });
}
