import { AccountSummaryListSchema } from '@rayo/shared';
import type { App } from '../../app.ts';
import type { Db } from '../../db/database.ts';
import { callerOf } from '../../http/access.ts';
import { listVisibleAccounts } from './accounts.service.ts';

export function registerAccountRoutes(app: App, deps: { db: Db }): void {
  app.get(
    '/api/account/all',
    {
      config: { access: ['super_admin', 'admin', 'manager'] },
      schema: { tags: ['accounts'], response: { 200: AccountSummaryListSchema } },
    },
    async (request) => listVisibleAccounts(deps.db, callerOf(request)),
  );
}
