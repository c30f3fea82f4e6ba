import type { Db } from '../../db/database.ts';
import type { App } from '../../http/app-type.ts';
import { registerCall } from '../../http/contract.ts';
import { listCurrencies } from './rates.service.ts';

export function registerRateRoutes(app: App, deps: { db: Db }): void {
  registerCall(app, 'GET /api/currencies', async () => listCurrencies(deps.db));
}
