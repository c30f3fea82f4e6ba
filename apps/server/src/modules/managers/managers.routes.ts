import { callerOf } from '../../http/access.ts';
import type { App } from '../../http/app-type.ts';
import { registerCall } from '../../http/contract.ts';
import { checkMfaCode, requireMfaCode } from '../../http/mfa-code.ts';
import { enforceRateLimit, type RateLimitDeps, type RateLimitRule } from '../../http/rate-limit.ts';
import type { MfaDeps } from '../mfa/mfa-codes.ts';
import { createManager, deleteManager, listManagers, updateManager } from './managers.service.ts';

/**
 * Each new manager and each password set for one costs a scrypt hash, so an admin (or a stolen
 * admin session) gets a budget of them rather than a lever on the server's CPU.
 */
const managerPasswords: RateLimitRule = { name: 'manager-passwords', limit: 30, windowSeconds: 60 * 60 };

/**
 * Creating a manager, or setting one's password, hands the organization to whoever knows that
 * password, for as long as the manager exists: with MFA on it needs the `mfa-code` header, as
 * the other sensitive changes do (DESIGN §6).
 */
export function registerManagerRoutes(app: App, deps: MfaDeps & RateLimitDeps): void {
  registerCall(app, 'GET /api/managers', async (request) => listManagers(deps.db, callerOf(request)));

  registerCall(
    app,
    'POST /api/managers',
    async (request, reply) => {
      const caller = callerOf(request);
      await enforceRateLimit(deps, reply, managerPasswords, caller.userId);
      return createManager(caller, deps.db, request.body);
    },
    { preHandler: [requireMfaCode(deps)] },
  );

  registerCall(app, 'PATCH /api/managers/:id', async (request, reply) => {
    const caller = callerOf(request);
    if (request.body.password !== undefined) {
      await checkMfaCode(deps, request, reply);
      await enforceRateLimit(deps, reply, managerPasswords, caller.userId);
    }
    return updateManager(caller, deps.db, request.params.id, request.body);
  });

  registerCall(app, 'DELETE /api/managers/:id', async (request) =>
    deleteManager(callerOf(request), deps.db, request.params.id),
  );
}
