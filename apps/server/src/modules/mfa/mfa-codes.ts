import type { Db } from '../../db/database.ts';
import type { User } from '../../db/schema.ts';
import { type AuditAction, insertAuditEntry } from '../audit/audit.repo.ts';
import { claimTimeStep, countUnusedRecoveryCodes, findUserMfa, useRecoveryCode } from './mfa.repo.ts';
import type { SecretCipher } from './secret-cipher.ts';
import { hashRecoveryCode, timeStepOfCode } from './totp.ts';

// How codes are checked, shared by the settings calls, the `mfa-code` guard and sign-in.

export type MfaDeps = { db: Db; mfaCipher: SecretCipher };
export type MfaUser = Pick<User, 'id' | 'email' | 'organization_id'>;

/**
 * True when `code` is the user's current TOTP code (one step either side) and its time step is
 * later than the last one accepted, which it then becomes: each code works once.
 */
export async function consumeTotpCode(deps: MfaDeps, userId: string, code: string, now: Date): Promise<boolean> {
  const mfa = await findUserMfa(deps.db, userId);
  if (!mfa?.enabled_at) return false;
  const step = timeStepOfCode(deps.mfaCipher.open(mfa.secret_sealed, userId), code, now);
  return step !== null && (await claimTimeStep(deps.db, userId, step));
}

/** True when `code` is one of the user's unused recovery codes, which is then used up. */
export async function consumeRecoveryCode(db: Db, user: MfaUser, code: string, ip: string, now: Date) {
  if (!(await useRecoveryCode(db, user.id, hashRecoveryCode(code), now))) return false;
  await recordMfaChange(db, user, 'settings.mfa_recovery_used', ip, {
    recoveryCodesLeft: await countUnusedRecoveryCodes(db, user.id),
  });
  return true;
}

/** An audit row for a change to the user's own MFA; never with a code or the secret. */
export async function recordMfaChange(
  db: Db,
  user: MfaUser,
  action: Extract<AuditAction, `settings.mfa_${string}`>,
  ip: string,
  after?: Record<string, unknown>,
): Promise<void> {
  await insertAuditEntry(db, {
    action,
    actorUserId: user.id,
    actorEmail: user.email,
    organizationId: user.organization_id,
    target: `user:${user.id}`,
    ip,
    after,
  });
}
