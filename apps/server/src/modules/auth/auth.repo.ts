import type { Db } from '../../db/database.ts';

/** Without `familyId` the token starts a family: a new sign-in. */
export async function insertRefreshToken(
  db: Db,
  token: { userId: string; tokenHash: string; expiresAt: Date; familyId?: string },
): Promise<void> {
  await db
    .insertInto('refresh_tokens')
    .values({
      user_id: token.userId,
      token_hash: token.tokenHash,
      expires_at: token.expiresAt,
      ...(token.familyId ? { family_id: token.familyId } : {}),
    })
    .execute();
}

/** A refresh token, whatever its state, and its user, locked for the caller's transaction so that it is used once. */
export async function lockRefreshToken(db: Db, tokenHash: string) {
  return db
    .selectFrom('refresh_tokens')
    .innerJoin('users', 'users.id', 'refresh_tokens.user_id')
    .select([
      'refresh_tokens.id',
      'refresh_tokens.family_id',
      'refresh_tokens.expires_at',
      'refresh_tokens.revoked_at',
      'refresh_tokens.rotated_at',
      'users.id as user_id',
      'users.email',
      'users.organization_id',
      'users.role',
      'users.email_confirmed_at',
      'users.session_epoch',
    ])
    .where('refresh_tokens.token_hash', '=', tokenHash)
    .forUpdate('refresh_tokens')
    .executeTakeFirst();
}

/** Retires a token that was just used; presenting it again counts as reuse. */
export async function markRefreshTokenRotated(db: Db, id: string, now: Date): Promise<void> {
  await db.updateTable('refresh_tokens').set({ rotated_at: now, revoked_at: now }).where('id', '=', id).execute();
}

/** Revokes every live token descending from the sign-in that started the family. */
export async function revokeRefreshTokenFamily(db: Db, familyId: string, now: Date): Promise<void> {
  await db
    .updateTable('refresh_tokens')
    .set({ revoked_at: now })
    .where('family_id', '=', familyId)
    .where('revoked_at', 'is', null)
    .execute();
}

export async function revokeRefreshToken(db: Db, tokenHash: string, now: Date): Promise<void> {
  await db
    .updateTable('refresh_tokens')
    .set({ revoked_at: now })
    .where('token_hash', '=', tokenHash)
    .where('revoked_at', 'is', null)
    .execute();
}

export async function deleteRefreshTokensExpiredBefore(db: Db, before: Date): Promise<void> {
  await db.deleteFrom('refresh_tokens').where('expires_at', '<', before).execute();
}

/**
 * Ends the user's sessions: revokes every live refresh token except the one hashed as
 * `exceptHash`, if given, and moves the session epoch on, which refuses every access token signed
 * before. Answers the new epoch, for an access token that survives.
 */
export async function endUserSessions(db: Db, userId: string, now: Date, exceptHash?: string): Promise<number> {
  let query = db
    .updateTable('refresh_tokens')
    .set({ revoked_at: now })
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null);
  if (exceptHash) query = query.where('token_hash', '!=', exceptHash);
  await query.execute();
  const user = await db
    .updateTable('users')
    .set((eb) => ({ session_epoch: eb('session_epoch', '+', 1) }))
    .where('id', '=', userId)
    .returning('session_epoch')
    .executeTakeFirstOrThrow();
  return user.session_epoch;
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
