import { AppError } from '@rayo/shared';
import type { Db } from '../../db/database.ts';
import type { User } from '../../db/schema.ts';
import type { PublicContext } from '../../http/request-context.ts';
import { type AuditAction, recordAuditEntry } from '../audit/audit.service.ts';
import { claimTimeStep, countUnusedRecoveryCodes, findUserMfa, useRecoveryCode } from './mfa.repo.ts';
import type { SecretCipher } from './secret-cipher.ts';
import { hashRecoveryCode, timeStepOfCode } from './totp.ts';

// How codes are checked, shared by the settings calls, the `mfa-code` guard and sign-in.

export type MfaDeps = { db: Db; mfaCipher: SecretCipher };
export type MfaUser = Pick<User, 'id' | 'email' | 'organization_id'>;

/**
 * What became of a TOTP code: `accepted` when it is the user's current code (one step either
 * side) and its time step is later than the last one accepted, which it then becomes; `reused`
 * when it is right but its step was already used, so the user must wait for the next code;
 * `wrong` otherwise. Each code works once.
 */
export type TotpOutcome = 'accepted' | 'reused' | 'wrong';

export async function consumeTotpCode(deps: MfaDeps, userId: string, code: string, now: Date): Promise<TotpOutcome> {
  const mfa = await findUserMfa(deps.db, userId);
  if (!mfa?.enabled_at) return 'wrong';
  const step = timeStepOfCode(deps.mfaCipher.open(mfa.secret_sealed, userId), code, now);
  if (step === null) return 'wrong';
  return (await claimTimeStep(deps.db, userId, step)) ? 'accepted' : 'reused';
}

/** The refusal of a code that was not accepted. */
export function refuseTotpCode(outcome: Exclude<TotpOutcome, 'accepted'>): AppError {
  return outcome === 'reused'
    ? new AppError('MfaCodeReused', 'This code was already used; wait for the next one')
    : new AppError('WrongMfaCode', 'The code is not correct');
}

/** True when `code` is one of the user's unused recovery codes, which is then used up. */
export async function consumeRecoveryCode(ctx: PublicContext, db: Db, user: MfaUser, code: string, now: Date) {
  if (!(await useRecoveryCode(db, user.id, hashRecoveryCode(code), now))) return false;
  await recordMfaChange(ctx, db, user, 'settings.mfa_recovery_used', {
    recoveryCodesLeft: await countUnusedRecoveryCodes(db, user.id),
  });
  return true;
}

/**
 * An audit row for a change to the user's own MFA; never with a code or the secret. Signed in
 * or at the sign-in step, the row names `user`, from the address of `ctx`.
 */
export async function recordMfaChange(
  ctx: PublicContext,
  db: Db,
  user: MfaUser,
  action: Extract<AuditAction, `settings.mfa_${string}`>,
  after?: Record<string, unknown>,
): Promise<void> {
  await recordAuditEntry(db, {
    action,
    actorUserId: user.id,
    actorEmail: user.email,
    organizationId: user.organization_id,
    target: `user:${user.id}`,
    ip: ctx.ip,
    after,
  });
}
