import { CurrencyListSchema } from '@rayo/shared';
import type { Db } from '../../db/database.ts';
import type { App } from '../../http/app-type.ts';
import { listCurrencies } from './rates.service.ts';

export function registerRateRoutes(app: App, deps: { db: Db }): void {
  app.get('/api/currencies', { schema: { tags: ['catalog'], response: { 200: CurrencyListSchema } } }, async () =>
    listCurrencies(deps.db),
  );
}
