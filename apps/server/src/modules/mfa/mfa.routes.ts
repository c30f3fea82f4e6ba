import { callerOf, mustHaveMfa, publicContextOf } from '../../http/access.ts';
import type { App } from '../../http/app-type.ts';
import { registerCall } from '../../http/contract.ts';
import { mfaCodeAttempts, requireMfaCode } from '../../http/mfa-code.ts';
import { enforceRateLimit, forgiveRateLimitHits, type RateLimitDeps } from '../../http/rate-limit.ts';
import {
  confirmMfaEnrollment,
  disableMfa,
  ensureMfaMayBeTurnedOff,
  hasMfaEnabled,
  startMfaEnrollment,
} from './mfa.service.ts';
import {
  type MfaSignInDeps,
  readMfaChallenge,
  signInWithMfaCode,
  signInWithRecoveryCode,
} from './mfa-sign-in.service.ts';

export function registerMfaRoutes(app: App, deps: MfaSignInDeps & RateLimitDeps): void {
  registerCall(app, 'GET /api/settings/mfa', async (request) => {
    const caller = callerOf(request);
    return { hasMfa: await hasMfaEnabled(deps.db, caller.userId), required: mustHaveMfa(deps.config, caller.role) };
  });

  registerCall(app, 'POST /api/settings/mfa/enable', async (request) =>
    startMfaEnrollment(deps, callerOf(request).userId),
  );

  registerCall(app, 'POST /api/settings/mfa/validate', async (request, reply) => {
    const caller = callerOf(request);
    const hit = await enforceRateLimit(deps, reply, mfaCodeAttempts, caller.userId);
    await confirmMfaEnrollment(caller, deps, request.body.code);
    await forgiveRateLimitHits(deps.db, [hit]);
  });

  registerCall(app, 'POST /api/settings/mfa/disable', async (request) => disableMfa(callerOf(request), deps), {
    preHandler: [
      async (request) => ensureMfaMayBeTurnedOff(mustHaveMfa(deps.config, callerOf(request).role)),
      requireMfaCode(deps),
    ],
  });

  registerCall(app, 'POST /api/auth/signin/mfa', async (request, reply) => {
    const userId = await readMfaChallenge(deps.tokens, request.body.mfaToken);
    const hit = await enforceRateLimit(deps, reply, mfaCodeAttempts, userId);
    const { code, remember } = request.body;
    const session = await signInWithMfaCode(publicContextOf(request), deps, userId, code, remember);
    await forgiveRateLimitHits(deps.db, [hit]);
    return session;
  });

  registerCall(app, 'POST /api/settings/mfa/recover', async (request, reply) => {
    const userId = await readMfaChallenge(deps.tokens, request.body.mfaToken);
    const hit = await enforceRateLimit(deps, reply, mfaCodeAttempts, userId);
    const { recoveryCode, remember } = request.body;
    const session = await signInWithRecoveryCode(publicContextOf(request), deps, userId, recoveryCode, remember);
    await forgiveRateLimitHits(deps.db, [hit]);
    return session;
  });
}
