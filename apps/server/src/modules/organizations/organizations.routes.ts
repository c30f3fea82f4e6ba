import type { Db } from '../../db/database.ts';
import { callerOf } from '../../http/access.ts';
import type { App } from '../../http/app-type.ts';
import { registerCall } from '../../http/contract.ts';
import type { TokenIssuer } from '../auth/tokens.ts';
import { getCurrentOrganization } from '../dashboard/dashboard.service.ts';
import { onboardOrganization } from './organizations.service.ts';

export function registerOrganizationRoutes(app: App, deps: { db: Db; tokens: TokenIssuer }): void {
  registerCall(app, 'POST /api/onboard', async (request) => onboardOrganization(callerOf(request), deps, request.body));

  registerCall(app, 'GET /api/organization/current', async (request) =>
    getCurrentOrganization(deps.db, callerOf(request)),
  );
}
