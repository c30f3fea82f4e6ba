import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';

export async function findUserMfa(db: Db, userId: string) {
  return db
    .selectFrom('user_mfa')
    .select(['secret_sealed', 'enabled_at'])
    .where('user_id', '=', userId)
    .executeTakeFirst();
}

/**
 * Starts (or restarts) an enrollment with a new secret and recovery codes, replacing any earlier
 * pending one. Returns false, changing nothing, when MFA is already on for the user.
 */
export async function replacePendingMfa(
  db: Db,
  userId: string,
  secretSealed: string,
  recoveryCodeHashes: string[],
): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const row = await trx
      .insertInto('user_mfa')
      .values({ user_id: userId, secret_sealed: secretSealed, enabled_at: null, last_used_step: null })
      .onConflict((oc) =>
        oc
          .column('user_id')
          .doUpdateSet({ secret_sealed: secretSealed, last_used_step: null, created_at: sql`now()` })
          .where('user_mfa.enabled_at', 'is', null),
      )
      .returning('user_id')
      .executeTakeFirst();
    if (!row) return false;
    await trx.deleteFrom('mfa_recovery_codes').where('user_id', '=', userId).execute();
    await trx
      .insertInto('mfa_recovery_codes')
      .values(recoveryCodeHashes.map((hash) => ({ user_id: userId, code_hash: hash, used_at: null })))
      .execute();
    return true;
  });
}

/** Turns a pending enrollment on, recording the step of the code that proved it. */
export async function enablePendingMfa(db: Db, userId: string, timeStep: number, now: Date): Promise<boolean> {
  const row = await db
    .updateTable('user_mfa')
    .set({ enabled_at: now, last_used_step: timeStep })
    .where('user_id', '=', userId)
    .where('enabled_at', 'is', null)
    .returning('user_id')
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Records `timeStep` as used when it is later than the last used one. One conditional update,
 * so two requests racing with the same code cannot both succeed.
 */
export async function claimTimeStep(db: Db, userId: string, timeStep: number): Promise<boolean> {
  const row = await db
    .updateTable('user_mfa')
    .set({ last_used_step: timeStep })
    .where('user_id', '=', userId)
    .where('enabled_at', 'is not', null)
    .where((eb) => eb.or([eb('last_used_step', 'is', null), eb('last_used_step', '<', String(timeStep))]))
    .returning('user_id')
    .executeTakeFirst();
  return row !== undefined;
}

/** Marks an unused recovery code of an enabled MFA as used; false when there is no such code. */
export async function useRecoveryCode(db: Db, userId: string, codeHash: string, now: Date): Promise<boolean> {
  const row = await db
    .updateTable('mfa_recovery_codes')
    .set({ used_at: now })
    .where('user_id', '=', userId)
    .where('code_hash', '=', codeHash)
    .where('used_at', 'is', null)
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('user_mfa')
          .select('user_mfa.user_id')
          .where('user_mfa.user_id', '=', userId)
          .where('user_mfa.enabled_at', 'is not', null),
      ),
    )
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

export async function countUnusedRecoveryCodes(db: Db, userId: string): Promise<number> {
  const row = await db
    .selectFrom('mfa_recovery_codes')
    .select((eb) => eb.fn.countAll<string>().as('count'))
    .where('user_id', '=', userId)
    .where('used_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** Removes the user's MFA, enabled or pending, and with it the recovery codes. */
export async function deleteUserMfa(db: Db, userId: string): Promise<void> {
  await db.deleteFrom('user_mfa').where('user_id', '=', userId).execute();
}
