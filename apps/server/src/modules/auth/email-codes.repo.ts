import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { EmailCodesTable } from '../../db/schema.ts';

export type EmailCodePurpose = EmailCodesTable['purpose'];

/** Stores a new code for the user and purpose and spends the older ones, so only the newest mail works. */
export async function replaceEmailCode(
  db: Db,
  code: { userId: string; purpose: EmailCodePurpose; codeHash: string; expiresAt: Date },
  now: Date,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await spendEmailCodesOfUser(trx, code.userId, code.purpose, now);
    await trx
      .insertInto('email_codes')
      .values({
        user_id: code.userId,
        purpose: code.purpose,
        code_hash: code.codeHash,
        expires_at: code.expiresAt,
      })
      .execute();
  });
}

/** Spends every live code of the user for the purpose. */
export async function spendEmailCodesOfUser(
  db: Db,
  userId: string,
  purpose: EmailCodePurpose,
  now: Date,
): Promise<void> {
  await db
    .updateTable('email_codes')
    .set({ used_at: now })
    .where('user_id', '=', userId)
    .where('purpose', '=', purpose)
    .where('used_at', 'is', null)
    .execute();
}

/** An unspent, unexpired code, locked for the caller's transaction so that it is spent once. */
export async function lockLiveCodeByHash(db: Db, purpose: EmailCodePurpose, codeHash: string, now: Date) {
  return db
    .selectFrom('email_codes')
    .select(['id', 'user_id'])
    .where('code_hash', '=', codeHash)
    .where('purpose', '=', purpose)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .forUpdate()
    .executeTakeFirst();
}

/** The user's newest unspent, unexpired code for the purpose, locked for the caller's transaction. */
export async function lockLiveCodeOfUser(db: Db, userId: string, purpose: EmailCodePurpose, now: Date) {
  return db
    .selectFrom('email_codes')
    .select(['id', 'code_hash', 'failed_attempts'])
    .where('user_id', '=', userId)
    .where('purpose', '=', purpose)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .orderBy('created_at', 'desc')
    .limit(1)
    .forUpdate()
    .executeTakeFirst();
}

export async function spendEmailCode(db: Db, id: string, now: Date): Promise<void> {
  await db.updateTable('email_codes').set({ used_at: now }).where('id', '=', id).execute();
}

/** Counts a wrong guess; the code is spent once it has had `maxAttempts` of them. */
export async function countFailedAttempt(db: Db, id: string, maxAttempts: number, now: Date): Promise<void> {
  await db
    .updateTable('email_codes')
    .set((eb) => ({
      failed_attempts: eb('failed_attempts', '+', 1),
      used_at: sql<Date | null>`case when failed_attempts >= ${maxAttempts - 1} then ${now}::timestamptz end`,
    }))
    .where('id', '=', id)
    .execute();
}
