import type { DeveloperTokenScope, Role } from '@rayo/shared';
import type { Db } from '../../db/database.ts';

const listed = ['id', 'name', 'scope', 'created_at', 'last_used_at', 'expires_at'] as const;

/**
 * Takes the organization's row for the rest of the transaction, so that two creations at once
 * count each other's token against the limit.
 */
export async function lockOrganizationForTokens(db: Db, organizationId: string): Promise<boolean> {
  const row = await db
    .selectFrom('organizations')
    .select('id')
    .where('id', '=', organizationId)
    .forUpdate()
    .executeTakeFirst();
  return row !== undefined;
}

/** The organization's tokens that still work, newest first. */
export async function listActiveDeveloperTokens(db: Db, organizationId: string, now: Date) {
  return db
    .selectFrom('developer_tokens')
    .select(listed)
    .where('organization_id', '=', organizationId)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .execute();
}

export async function insertDeveloperToken(
  db: Db,
  token: {
    organizationId: string;
    userId: string;
    name: string | null;
    scope: DeveloperTokenScope;
    tokenHash: string;
    expiresAt: Date;
  },
) {
  return db
    .insertInto('developer_tokens')
    .values({
      organization_id: token.organizationId,
      user_id: token.userId,
      name: token.name,
      scope: token.scope,
      token_hash: token.tokenHash,
      expires_at: token.expiresAt,
    })
    .returning(listed)
    .executeTakeFirstOrThrow();
}

/** Revokes one of the organization's live tokens; undefined when it has no such token. */
export async function revokeDeveloperTokenRow(db: Db, organizationId: string, id: string, now: Date) {
  return db
    .updateTable('developer_tokens')
    .set({ revoked_at: now })
    .where('id', '=', id)
    .where('organization_id', '=', organizationId)
    .where('revoked_at', 'is', null)
    .returning(['id', 'name'])
    .executeTakeFirst();
}

/** Revokes every live token the user made, answering how many. */
export async function revokeDeveloperTokensOfUser(db: Db, userId: string, now: Date): Promise<number> {
  const result = await db
    .updateTable('developer_tokens')
    .set({ revoked_at: now })
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/**
 * Records the use of a live token and answers who its access tokens are for. The user must
 * still be a confirmed admin of the token's organization: their role and organization are read
 * now, not when the token was made.
 */
export async function useDeveloperToken(
  db: Db,
  tokenHash: string,
  admins: readonly Role[],
  now: Date,
): Promise<
  { userId: string; organizationId: string; role: Role; scope: DeveloperTokenScope; sessionEpoch: number } | undefined
> {
  const row = await db
    .updateTable('developer_tokens')
    .from('users')
    .set({ last_used_at: now })
    .whereRef('users.id', '=', 'developer_tokens.user_id')
    .whereRef('users.organization_id', '=', 'developer_tokens.organization_id')
    .where('users.role', 'in', admins)
    .where('users.email_confirmed_at', 'is not', null)
    .where('developer_tokens.token_hash', '=', tokenHash)
    .where('developer_tokens.revoked_at', 'is', null)
    .where('developer_tokens.expires_at', '>', now)
    .returning([
      'users.id as user_id',
      'developer_tokens.organization_id',
      'users.role',
      'developer_tokens.scope',
      'users.session_epoch',
    ])
    .executeTakeFirst();
  return (
    row && {
      userId: row.user_id,
      organizationId: row.organization_id,
      role: row.role,
      scope: row.scope,
      sessionEpoch: row.session_epoch,
    }
  );
}
