import type { Db } from '../../db/database.ts';
import { callerOf } from '../../http/access.ts';
import type { App } from '../../http/app-type.ts';
import { registerCall } from '../../http/contract.ts';
import {
  createAccount,
  deleteAccount,
  listAccountDetails,
  listVisibleAccounts,
  updateAccount,
} from './accounts.service.ts';

export function registerAccountRoutes(app: App, deps: { db: Db }): void {
  registerCall(app, 'GET /api/account/all', async (request) => listVisibleAccounts(deps.db, callerOf(request)));

  registerCall(app, 'GET /api/accounts', async (request) => listAccountDetails(deps.db, callerOf(request)));

  registerCall(app, 'POST /api/accounts', async (request) => createAccount(deps.db, callerOf(request), request.body));

  registerCall(app, 'PATCH /api/accounts/:id', async (request) =>
    updateAccount(deps.db, callerOf(request), request.params.id, request.body),
  );

  registerCall(app, 'DELETE /api/accounts/:id', async (request) =>
    deleteAccount(deps.db, callerOf(request), request.params.id),
  );
}
