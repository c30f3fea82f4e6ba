import { AppError, type MfaEnrollment } from '@rayo/shared';
import type { Db } from '../../db/database.ts';
import type { RequestContext } from '../../http/request-context.ts';
import { findUserById } from '../users/users.service.ts';
import { deleteUserMfa, enablePendingMfa, findUserMfa, replacePendingMfa } from './mfa.repo.ts';
import {
  consumeRecoveryCode,
  consumeTotpCode,
  type MfaDeps,
  type MfaUser,
  recordMfaChange,
  refuseTotpCode,
} from './mfa-codes.ts';
import { hashRecoveryCode, newRecoveryCodes, newTotpSecret, otpauthUriOf, timeStepOfCode } from './totp.ts';

async function existingUser(db: Db, userId: string): Promise<MfaUser> {
  const user = await findUserById(db, userId);
  // An access token outlives a deleted user until it expires.
  if (!user) throw new AppError('Unauthorized', 'The user no longer exists');
  return user;
}

export async function hasMfaEnabled(db: Db, userId: string): Promise<boolean> {
  return Boolean((await findUserMfa(db, userId))?.enabled_at);
}

/**
 * Starts turning MFA on: a new secret and recovery codes, shown this once. MFA stays off until
 * `confirmMfaEnrollment` receives a code from the authenticator; starting again replaces them.
 */
export async function startMfaEnrollment(deps: MfaDeps, userId: string): Promise<MfaEnrollment> {
  const user = await existingUser(deps.db, userId);
  const secret = newTotpSecret();
  const recoveryCodes = newRecoveryCodes();
  const started = await replacePendingMfa(
    deps.db,
    user.id,
    deps.mfaCipher.seal(secret, user.id),
    recoveryCodes.map(hashRecoveryCode),
  );
  // Replacing an enabled secret without a code would let a stolen session take over the factor.
  if (!started) throw new AppError('MfaAlreadyEnabled', 'MFA is already on; turn it off before setting it up again');
  return { secret, otpauthUri: otpauthUriOf(secret, user.email), recoveryCodes };
}

/** Turns MFA on once `code` shows the authenticator holds the pending secret. */
export async function confirmMfaEnrollment(
  ctx: RequestContext,
  deps: MfaDeps,
  code: string,
  now = new Date(),
): Promise<void> {
  const user = await existingUser(deps.db, ctx.userId);
  const mfa = await findUserMfa(deps.db, user.id);
  if (mfa?.enabled_at) throw new AppError('MfaAlreadyEnabled', 'MFA is already on');
  if (!mfa) throw new AppError('MfaEnrollmentMissing', 'Start turning MFA on first');
  const step = timeStepOfCode(deps.mfaCipher.open(mfa.secret_sealed, user.id), code, now);
  if (step === null) throw new AppError('WrongMfaCode', 'The code is not correct; MFA stays off');
  // The enrollment may have been restarted meanwhile, with a secret this code does not prove.
  if (!(await enablePendingMfa(deps.db, user.id, step, now))) {
    throw new AppError('MfaEnrollmentMissing', 'Start turning MFA on again');
  }
  await recordMfaChange(ctx, deps.db, user, 'settings.mfa_enabled');
}

/**
 * The `mfa-code` check of a sensitive change (DESIGN §6). A recovery code is accepted too, so
 * that someone who lost their authenticator, signed in with a recovery code, can turn MFA off.
 */
export async function verifyMfaCode(
  ctx: RequestContext,
  deps: MfaDeps,
  code: string | undefined,
  now = new Date(),
): Promise<void> {
  if (!code?.trim()) throw new AppError('MissingMfaCode', 'This change needs a code in the mfa-code header');
  const outcome = await consumeTotpCode(deps, ctx.userId, code, now);
  if (outcome === 'accepted') return;
  if (
    outcome === 'wrong' &&
    (await consumeRecoveryCode(ctx, deps.db, await existingUser(deps.db, ctx.userId), code, now))
  ) {
    return;
  }
  throw refuseTotpCode(outcome);
}

/**
 * Refuses turning MFA off when the platform requires it of the caller (BACKOFFICE_MFA_REQUIRED),
 * before any code is asked for or used up.
 */
export function ensureMfaMayBeTurnedOff(required: boolean): void {
  if (required) {
    throw new AppError('MfaCannotBeTurnedOff', 'MFA is required for back office and cannot be turned off');
  }
}

/** Turns MFA off; the route has checked the `mfa-code` header already. */
export async function disableMfa(ctx: RequestContext, deps: MfaDeps): Promise<void> {
  const user = await existingUser(deps.db, ctx.userId);
  if (!(await hasMfaEnabled(deps.db, user.id))) throw new AppError('MfaNotEnabled', 'MFA is not on');
  await deleteUserMfa(deps.db, user.id);
  await recordMfaChange(ctx, deps.db, user, 'settings.mfa_disabled');
}
