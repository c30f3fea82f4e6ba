import { CountryListSchema } from '@rayo/shared';
import type { App } from '../../app.ts';
import type { Db } from '../../db/database.ts';
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
