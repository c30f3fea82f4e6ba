import { callerOf } from '../../http/access.ts';
import type { App } from '../../http/app-type.ts';
import { registerCall } from '../../http/contract.ts';
import { requireMfaCode } from '../../http/mfa-code.ts';
import type { RateLimitDeps } from '../../http/rate-limit.ts';
import type { MfaDeps } from '../mfa/mfa-codes.ts';
import { createDeveloperToken, listDeveloperTokens, revokeDeveloperToken } from './developer-tokens.service.ts';

export function registerDeveloperTokenRoutes(app: App, deps: MfaDeps & RateLimitDeps): void {
  registerCall(app, 'GET /api/settings/developer-tokens', async (request) =>
    listDeveloperTokens(deps.db, callerOf(request)),
  );

  registerCall(
    app,
    'POST /api/settings/developer-tokens',
    async (request) => createDeveloperToken(callerOf(request), deps.db, request.body),
    { preHandler: [requireMfaCode(deps)] },
  );

  registerCall(app, 'DELETE /api/settings/developer-tokens/:id', async (request) =>
    revokeDeveloperToken(callerOf(request), deps.db, request.params.id),
  );
}
