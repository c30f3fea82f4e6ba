import type { Db } from '../../db/database.ts';
import { callerOf } from '../../http/access.ts';
import type { App } from '../../http/app-type.ts';
import { registerCall } from '../../http/contract.ts';
import { createVirtualBpt, deleteVirtualBpt, listVirtualBpts } from './virtual-bpts.service.ts';

export function registerVirtualBptRoutes(app: App, deps: { db: Db }): void {
  const { db } = deps;

  registerCall(app, 'GET /api/virtual-bpts', async (request) => listVirtualBpts(db, callerOf(request)));

  registerCall(app, 'POST /api/virtual-bpts', async (request) => createVirtualBpt(db, callerOf(request), request.body));

  registerCall(app, 'DELETE /api/virtual-bpts/:id', async (request) =>
    deleteVirtualBpt(db, callerOf(request), request.params.id),
  );
}
