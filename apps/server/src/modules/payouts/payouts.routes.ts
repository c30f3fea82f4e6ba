import type { Config } from '../../config.ts';
import type { Db } from '../../db/database.ts';
import { callerOf } from '../../http/access.ts';
import type { App } from '../../http/app-type.ts';
import { registerCall } from '../../http/contract.ts';
import { listPayouts } from './payouts.service.ts';

export function registerPayoutRoutes(app: App, deps: { db: Db; config: Config }): void {
  registerCall(app, 'GET /api/settings/payouts', async (request) =>
    listPayouts(deps, callerOf(request), request.query),
  );
}
