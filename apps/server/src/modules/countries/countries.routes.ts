import { CountryListSchema } from '@rayo/shared';
import type { Db } from '../../db/database.ts';
import type { App } from '../../http/app-type.ts';
import { listCountries } from './countries.service.ts';

export function registerCountryRoutes(app: App, deps: { db: Db }): void {
  app.get(
    '/api/countries',
    { schema: { tags: ['catalog'], response: { 200: CountryListSchema } } },
    async (_request, reply) => {
      reply.header('cache-control', 'public, max-age=3600');
      return listCountries(deps.db);
    },
  );
}
