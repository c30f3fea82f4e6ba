import { AppError, type SignInResponse } from '@rayo/shared';
import type { PublicContext } from '../../http/request-context.ts';
import { type AuthDeps, startSession } from '../auth/auth.service.ts';
import { recordFailedSignIn, recordSignIn } from '../auth/sign-in-audit.ts';
import type { TokenIssuer } from '../auth/tokens.ts';
import { findUserById } from '../users/users.service.ts';
import { consumeRecoveryCode, consumeTotpCode, type MfaDeps, refuseTotpCode } from './mfa-codes.ts';

// The second step of sign-in for users with MFA on. The password step (auth.service.ts signIn)
// answered with a challenge token; these exchange it, with a code, for the session.

export type MfaSignInDeps = AuthDeps & MfaDeps;

/** The user a sign-in challenge was issued to; a lapsed or forged one means starting over. */
export async function readMfaChallenge(tokens: TokenIssuer, mfaToken: string): Promise<string> {
  const userId = await tokens.verifyMfaChallenge(mfaToken);
  if (!userId) throw new AppError('MfaChallengeExpired', 'The sign-in took too long; sign in again');
  return userId;
}

async function challengedUser(deps: MfaSignInDeps, userId: string) {
  const user = await findUserById(deps.db, userId);
  if (!user) throw new AppError('MfaChallengeExpired', 'Sign in again');
  return user;
}

export async function signInWithMfaCode(
  ctx: PublicContext,
  deps: MfaSignInDeps,
  userId: string,
  code: string,
  remember: boolean | undefined,
  now = new Date(),
): Promise<SignInResponse> {
  const user = await challengedUser(deps, userId);
  const outcome = await consumeTotpCode(deps, user.id, code, now);
  if (outcome !== 'accepted') {
    const reason = outcome === 'reused' ? 'mfa_code_reused' : 'mfa_code';
    await recordFailedSignIn(ctx, deps.db, { email: user.email, user, reason });
    throw refuseTotpCode(outcome);
  }
  await recordSignIn(ctx, deps.db, user, 'mfa_code');
  return startSession(deps, user, remember, now);
}

/** SPEC §7 `POST /settings/mfa/recover`: a recovery code instead of the authenticator's, once. */
export async function signInWithRecoveryCode(
  ctx: PublicContext,
  deps: MfaSignInDeps,
  userId: string,
  recoveryCode: string,
  remember: boolean | undefined,
  now = new Date(),
): Promise<SignInResponse> {
  const user = await challengedUser(deps, userId);
  if (!(await consumeRecoveryCode(ctx, deps.db, user, recoveryCode, now))) {
    await recordFailedSignIn(ctx, deps.db, { email: user.email, user, reason: 'recovery_code' });
    throw new AppError('WrongRecoveryCode', 'The recovery code is not correct or was already used');
  }
  await recordSignIn(ctx, deps.db, user, 'recovery_code');
  return startSession(deps, user, remember, now);
}
