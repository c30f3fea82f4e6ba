import {
  MFA_CODE_HEADER,
  MfaEnrollmentSchema,
  MfaSignInRequestSchema,
  MfaStatusSchema,
  RecoverMfaRequestSchema,
  SignInResponseSchema,
  ValidateMfaRequestSchema,
} from '@rayo/shared';
import { z } from 'zod';
import { callerOf, mustHaveMfa, publicContextOf } from '../../http/access.ts';
import type { App } from '../../http/app-type.ts';
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

const tags = ['mfa'];

export function registerMfaRoutes(app: App, deps: MfaSignInDeps & RateLimitDeps): void {
  app.get(
    '/api/settings/mfa',
    {
      schema: {
        tags,
        summary: 'Whether the caller has MFA on, and whether the platform requires it of them',
        response: { 200: MfaStatusSchema },
      },
    },
    async (request) => {
      const caller = callerOf(request);
      return { hasMfa: await hasMfaEnabled(deps.db, caller.userId), required: mustHaveMfa(deps.config, caller.role) };
    },
  );

  app.post(
    '/api/settings/mfa/enable',
    {
      schema: {
        tags,
        summary:
          'Starts turning MFA on: a new secret and 10 recovery codes, shown once. MFA stays off until validated.',
        response: { 200: MfaEnrollmentSchema },
      },
    },
    async (request) => startMfaEnrollment(deps, callerOf(request).userId),
  );

  app.post(
    '/api/settings/mfa/validate',
    {
      schema: {
        tags,
        summary: 'Turns MFA on with a first code from the authenticator',
        body: ValidateMfaRequestSchema,
      },
    },
    async (request, reply) => {
      const caller = callerOf(request);
      const hit = await enforceRateLimit(deps, reply, mfaCodeAttempts, caller.userId);
      await confirmMfaEnrollment(caller, deps, request.body.code);
      await forgiveRateLimitHits(deps.db, [hit]);
      return reply.status(204).send();
    },
  );

  app.post(
    '/api/settings/mfa/disable',
    {
      preHandler: [
        async (request) => ensureMfaMayBeTurnedOff(mustHaveMfa(deps.config, callerOf(request).role)),
        requireMfaCode(deps),
      ],
      schema: {
        tags,
        summary: `Turns MFA off; needs a code (or a recovery code) in the ${MFA_CODE_HEADER} header. 403 MfaCannotBeTurnedOff when the platform requires MFA of the caller`,
        headers: z.object({ [MFA_CODE_HEADER]: z.string().max(64).optional() }),
      },
    },
    async (request, reply) => {
      await disableMfa(callerOf(request), deps);
      return reply.status(204).send();
    },
  );

  app.post(
    '/api/auth/signin/mfa',
    {
      schema: {
        tags: ['auth', ...tags],
        summary: "Sign-in's second step: the challenge from /api/auth/signin and a code",
        body: MfaSignInRequestSchema,
        response: { 200: SignInResponseSchema },
      },
    },
    async (request, reply) => {
      const userId = await readMfaChallenge(deps.tokens, request.body.mfaToken);
      const hit = await enforceRateLimit(deps, reply, mfaCodeAttempts, userId);
      const { code, remember } = request.body;
      const session = await signInWithMfaCode(publicContextOf(request), deps, userId, code, remember);
      await forgiveRateLimitHits(deps.db, [hit]);
      return session;
    },
  );

  app.post(
    '/api/settings/mfa/recover',
    {
      schema: {
        tags: ['auth', ...tags],
        summary: "Sign-in's second step with a single-use recovery code instead of a code",
        body: RecoverMfaRequestSchema,
        response: { 200: SignInResponseSchema },
      },
    },
    async (request, reply) => {
      const userId = await readMfaChallenge(deps.tokens, request.body.mfaToken);
      const hit = await enforceRateLimit(deps, reply, mfaCodeAttempts, userId);
      const { recoveryCode, remember } = request.body;
      const session = await signInWithRecoveryCode(publicContextOf(request), deps, userId, recoveryCode, remember);
      await forgiveRateLimitHits(deps.db, [hit]);
      return session;
    },
  );
}
