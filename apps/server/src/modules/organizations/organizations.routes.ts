import { CurrentOrganizationSchema } from '@rayo/shared';
import type { App } from '../../app.ts';
import type { Db } from '../../db/database.ts';
import { callerOf } from '../../http/access.ts';
import { getCurrentOrganization } from '../dashboard/dashboard.service.ts';

export function registerOrganizationRoutes(app: App, deps: { db: Db }): void {
  app.get(
    '/api/organization/current',
    {
      schema: {
        tags: ['organizations'],
        summary: "The caller's organization: its time zone and currency drive the dashboard's periods and money",
        response: { 200: CurrentOrganizationSchema },
      },
    },
    async (request) => getCurrentOrganization(deps.db, callerOf(request)),
  );
}
