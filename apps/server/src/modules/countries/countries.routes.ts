import type { Db } from '../../db/database.ts';
import type { App } from '../../http/app-type.ts';
import { registerCall } from '../../http/contract.ts';
import { listCountries } from './countries.service.ts';

export function registerCountryRoutes(app: App, deps: { db: Db }): void {
  registerCall(app, 'GET /api/countries', async (_request, reply) => {
    reply.header('cache-control', 'public, max-age=3600');
    return listCountries(deps.db);
  });
}
