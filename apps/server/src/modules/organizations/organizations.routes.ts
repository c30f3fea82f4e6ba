import { CurrentOrganizationSchema, OnboardRequestSchema, OnboardResponseSchema } from '@rayo/shared';
import type { Db } from '../../db/database.ts';
import { callerOf } from '../../http/access.ts';
import type { App } from '../../http/app-type.ts';
import type { TokenIssuer } from '../auth/tokens.ts';
import { getCurrentOrganization } from '../dashboard/dashboard.service.ts';
import { onboardOrganization } from './organizations.service.ts';

export function registerOrganizationRoutes(app: App, deps: { db: Db; tokens: TokenIssuer }): void {
  app.post(
    '/api/onboard',
    {
      schema: {
        tags: ['organizations'],
        summary: "Creates the signed-up admin's organization; answers a new access token that names it",
        body: OnboardRequestSchema,
        response: { 201: OnboardResponseSchema },
      },
    },
    async (request, reply) => reply.status(201).send(await onboardOrganization(callerOf(request), deps, request.body)),
  );

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
