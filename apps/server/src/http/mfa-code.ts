import { AppError, MFA_CODE_HEADER } from '@rayo/shared';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { hasMfaEnabled, verifyMfaCode } from '../modules/mfa/mfa.service.ts';
import type { MfaDeps } from '../modules/mfa/mfa-codes.ts';
import { callerOf } from './access.ts';
import { enforceRateLimit, forgiveRateLimitHits, type RateLimitDeps, type RateLimitRule } from './rate-limit.ts';

/**
 * Wrong code attempts per user, over every call that checks one (sign-in's second step,
 * recovery, turning MFA on, and sensitive changes): six digits must not be guessable by
 * retrying. Each attempt is counted before its code is checked, so that a burst sent at once
 * cannot slip past, and given back when the code was right: a user who signs in and confirms
 * changes all day is never locked out by it.
 */
export const mfaCodeAttempts: RateLimitRule = { name: 'mfa-code-user', limit: 10, windowSeconds: 15 * 60 };

/**
 * DESIGN §6: a sensitive change by a user with MFA on needs a current code in the `mfa-code`
 * header. Use as the route's `preHandler`, after access control has named the caller; users
 * without MFA pass untouched.
 */
export function requireMfaCode(deps: MfaDeps & RateLimitDeps) {
  return (request: FastifyRequest, reply: FastifyReply): Promise<void> => checkMfaCode(deps, request, reply);
}

/** `requireMfaCode` inside a handler, for a route whose change is sensitive only with some bodies. */
export async function checkMfaCode(
  deps: MfaDeps & RateLimitDeps,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<void> {
  const caller = callerOf(request);
  if (!(await hasMfaEnabled(deps.db, caller.userId))) return;
  const header = request.headers[MFA_CODE_HEADER];
  const code = typeof header === 'string' ? header : undefined;
  // A request without a code guesses nothing, so it is not counted: the web app sends a change
  // without one to hear every other refusal before it asks for the code.
  if (!code?.trim()) throw new AppError('MissingMfaCode', 'This change needs a code in the mfa-code header');
  const hit = await enforceRateLimit(deps, reply, mfaCodeAttempts, caller.userId);
  await verifyMfaCode(caller, deps, code);
  await forgiveRateLimitHits(deps.db, [hit]);
}
