import { randomBytes } from 'node:crypto';
import {
  AppError,
  type CreateDeveloperTokenRequest,
  type CreatedDeveloperToken,
  DEVELOPER_TOKEN_LIMIT,
  DEVELOPER_TOKEN_PREFIX,
  DEVELOPER_TOKEN_YEARS,
  type DeveloperToken,
  type DeveloperTokenScope,
  type RefreshAccessTokenResponse,
  type Role,
} from '@rayo/shared';
import type { Db } from '../../db/database.ts';
import type { RequestContext } from '../../http/request-context.ts';
import { organizationOf } from '../accounts/accounts.service.ts';
import { audit } from '../audit/audit.service.ts';
import { type AccessClaims, sha256Hex, type TokenIssuer } from '../auth/tokens.ts';
import {
  insertDeveloperToken,
  listActiveDeveloperTokens,
  lockOrganizationForTokens,
  revokeDeveloperTokenRow,
  revokeDeveloperTokensOfUser,
  useDeveloperToken,
} from './developer-tokens.repo.ts';

/** Only these roles hold developer tokens; the permission table says the same of the routes. */
const tokenHolders: readonly Role[] = ['super_admin', 'admin'];

type Row = {
  id: string;
  name: string | null;
  scope: DeveloperTokenScope;
  created_at: Date;
  last_used_at: Date | null;
  expires_at: Date;
};

function toDeveloperToken(row: Row): DeveloperToken {
  return {
    id: row.id,
    name: row.name,
    scope: row.scope,
    createdAt: row.created_at.toISOString(),
    lastUsedAt: row.last_used_at?.toISOString() ?? null,
    expiresAt: row.expires_at.toISOString(),
  };
}

export function isDeveloperToken(token: string): boolean {
  return token.startsWith(DEVELOPER_TOKEN_PREFIX);
}

export async function listDeveloperTokens(db: Db, caller: AccessClaims, now = new Date()): Promise<DeveloperToken[]> {
  return (await listActiveDeveloperTokens(db, organizationOf(caller), now)).map(toDeveloperToken);
}

/**
 * A new token for the organization, acting as the caller. The token itself is answered once
 * and only its SHA-256 kept, like a session's refresh token (256 random bits need no slow hash).
 */
export async function createDeveloperToken(
  ctx: RequestContext,
  db: Db,
  request: CreateDeveloperTokenRequest,
  now = new Date(),
): Promise<CreatedDeveloperToken> {
  const organizationId = organizationOf(ctx);
  const token = `${DEVELOPER_TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
  const expiresAt = new Date(now);
  expiresAt.setUTCFullYear(expiresAt.getUTCFullYear() + DEVELOPER_TOKEN_YEARS);
  const name = request.name ?? null;
  const row = await db.transaction().execute(async (trx) => {
    if (!(await lockOrganizationForTokens(trx, organizationId))) {
      throw new AppError('NotFound', 'Organization not found');
    }
    if ((await listActiveDeveloperTokens(trx, organizationId, now)).length >= DEVELOPER_TOKEN_LIMIT) {
      throw new AppError(
        'DeveloperTokenLimit',
        `An organization may hold ${DEVELOPER_TOKEN_LIMIT} developer tokens; revoke one to create another`,
      );
    }
    const created = await insertDeveloperToken(trx, {
      organizationId,
      userId: ctx.userId,
      name,
      scope: request.scope,
      tokenHash: sha256Hex(token),
      expiresAt,
    });
    await audit(ctx, trx, 'settings.developer_token_created', {
      organizationId,
      target: `developer_token:${created.id}`,
      after: { name, scope: request.scope, expiresAt: expiresAt.toISOString() },
    });
    return created;
  });
  return { ...toDeveloperToken(row), token };
}

/**
 * Revokes one of the organization's tokens: it is refused from the next exchange on. Access
 * tokens it already earned stay valid until they expire (15 minutes), like any access token.
 */
export async function revokeDeveloperToken(ctx: RequestContext, db: Db, id: string, now = new Date()): Promise<void> {
  const organizationId = organizationOf(ctx);
  await db.transaction().execute(async (trx) => {
    const revoked = await revokeDeveloperTokenRow(trx, organizationId, id, now);
    if (!revoked) throw new AppError('NotFound', 'Developer token not found');
    await audit(ctx, trx, 'settings.developer_token_revoked', {
      organizationId,
      target: `developer_token:${revoked.id}`,
      before: { name: revoked.name },
    });
  });
}

/**
 * `POST /auth/refresh-access-token` with a developer token: an access token, and no new refresh
 * token, since a developer token does not rotate. It is not retired by use, so presenting it
 * again is normal and never counts as reuse; its last use is recorded for the list.
 */
export async function exchangeDeveloperToken(
  deps: { db: Db; tokens: TokenIssuer },
  token: string,
  now = new Date(),
): Promise<RefreshAccessTokenResponse> {
  const holder = await useDeveloperToken(deps.db, sha256Hex(token), tokenHolders, now);
  if (!holder) throw new AppError('Unauthorized', 'The refresh token is not valid');
  const { scope, ...claims } = holder;
  return { accessToken: await deps.tokens.signAccessToken({ ...claims, developerScope: scope }) };
}

/** Revokes every live developer token of the user; how many. `db` is the caller's transaction. */
export async function revokeUserDeveloperTokens(db: Db, userId: string, now: Date): Promise<number> {
  return revokeDeveloperTokensOfUser(db, userId, now);
}
