import type { Db } from '../../db/database.ts';

export async function insertRefreshToken(db: Db, userId: string, tokenHash: string, expiresAt: Date): Promise<void> {
  await db
    .insertInto('refresh_tokens')
    .values({ user_id: userId, token_hash: tokenHash, expires_at: expiresAt })
    .execute();
}

/**
 * The user behind a refresh token that is neither revoked nor expired. A pending sign-up never
 * holds a session, so a token of an unconfirmed user counts for nothing.
 */
export async function findUserByLiveRefreshToken(db: Db, tokenHash: string, now: Date) {
  return db
    .selectFrom('refresh_tokens')
    .innerJoin('users', 'users.id', 'refresh_tokens.user_id')
    .select(['users.id', 'users.organization_id', 'users.role'])
    .where('refresh_tokens.token_hash', '=', tokenHash)
    .where('refresh_tokens.revoked_at', 'is', null)
    .where('refresh_tokens.expires_at', '>', now)
    .where('users.email_confirmed_at', 'is not', null)
    .executeTakeFirst();
}

export async function revokeRefreshToken(db: Db, tokenHash: string, now: Date): Promise<void> {
  await db
    .updateTable('refresh_tokens')
    .set({ revoked_at: now })
    .where('token_hash', '=', tokenHash)
    .where('revoked_at', 'is', null)
    .execute();
}

/** Revokes every live refresh token of the user except the one hashed as `exceptHash`, if given. */
export async function revokeUserRefreshTokens(db: Db, userId: string, now: Date, exceptHash?: string): Promise<void> {
  let query = db
    .updateTable('refresh_tokens')
    .set({ revoked_at: now })
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null);
  if (exceptHash) query = query.where('token_hash', '!=', exceptHash);
  await query.execute();
}

export async function findSecret(db: Db, name: string): Promise<string | undefined> {
  const row = await db.selectFrom('server_secrets').select('value').where('name', '=', name).executeTakeFirst();
  return row?.value;
}

/** Stores the secret unless another process stored one first. */
export async function insertSecretIfAbsent(db: Db, name: string, value: string): Promise<void> {
  await db
    .insertInto('server_secrets')
    .values({ name, value })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
}
