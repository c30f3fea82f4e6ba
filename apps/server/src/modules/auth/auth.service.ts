import { randomBytes } from 'node:crypto';
import {
  AppError,
  type RefreshAccessTokenResponse,
  type SignInRequest,
  type SignInResponse,
  type SignInResult,
} from '@rayo/shared';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/database.ts';
import type { User } from '../../db/schema.ts';
import type { PublicContext } from '../../http/request-context.ts';
import { recordAuditEntry } from '../audit/audit.service.ts';
import { hasMfaEnabled } from '../mfa/mfa.service.ts';
import { exchangeDeveloperToken, isDeveloperToken } from '../settings/developer-tokens.service.ts';
import { findUserCredentials } from '../users/users.service.ts';
import {
  deleteRefreshTokensExpiredBefore,
  endUserSessions,
  findSecret,
  insertRefreshToken,
  insertSecretIfAbsent,
  lockRefreshToken,
  markRefreshTokenRotated,
  revokeRefreshToken,
  revokeRefreshTokenFamily,
} from './auth.repo.ts';
import { unmatchableHash, verifyPassword } from './passwords.ts';
import { recordFailedSignIn, recordSignIn } from './sign-in-audit.ts';
import { hashRefreshToken, newRefreshToken, type TokenIssuer } from './tokens.ts';

export type AuthDeps = { db: Db; config: Config; tokens: TokenIssuer };

const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;

/**
 * The password step of sign-in. With MFA on, the answer is a challenge to be exchanged, with a
 * code, for the session (see mfa-sign-in.service.ts); otherwise it is the session itself.
 */
export async function signIn(
  ctx: PublicContext,
  deps: AuthDeps,
  request: SignInRequest,
  now = new Date(),
): Promise<SignInResult> {
  const user = await findUserCredentials(deps.db, { email: request.email });
  const matches = await verifyPassword(request.password, user?.password_hash ?? unmatchableHash);
  if (!user || !matches) {
    await recordFailedSignIn(ctx, deps.db, { email: request.email, user, reason: 'password' });
    throw new AppError('WrongAuth', 'Invalid email or password');
  }
  // Only the owner of the password learns that the address is unconfirmed.
  if (!user.email_confirmed_at) {
    await recordFailedSignIn(ctx, deps.db, { email: request.email, user, reason: 'email_not_confirmed' });
    throw new AppError(
      'EmailNotConfirmed',
      'Confirm your email with the link we sent you, or sign up again for a new link',
    );
  }
  if (await hasMfaEnabled(deps.db, user.id)) {
    return { mfaRequired: true, mfaToken: await deps.tokens.signMfaChallenge(user.id) };
  }
  await recordSignIn(ctx, deps.db, user, 'password');
  return startSession(deps, user, request.remember, now);
}

/**
 * A new session for a user whose identity was just proven: an access token and a refresh token
 * that starts a family. "Remember me" decides how long the family lives: without it, no longer
 * than a working day, since the web app then keeps no refresh token and the one answered only
 * names this session to a password change.
 */
export async function startSession(
  deps: AuthDeps,
  user: Pick<User, 'id' | 'organization_id' | 'role' | 'language' | 'session_epoch'>,
  remember: boolean | undefined,
  now = new Date(),
): Promise<SignInResponse> {
  const refresh = newRefreshToken();
  const lifeMs = remember ? deps.config.refreshTokenTtlDays * DAY_MS : deps.config.sessionTtlHours * HOUR_MS;
  await insertRefreshToken(deps.db, {
    userId: user.id,
    tokenHash: refresh.hash,
    expiresAt: new Date(now.getTime() + lifeMs),
  });
  const accessToken = await deps.tokens.signAccessToken({
    userId: user.id,
    organizationId: user.organization_id,
    role: user.role,
    sessionEpoch: user.session_epoch,
  });
  return { accessToken, refreshToken: refresh.token, role: user.role, language: user.language };
}

/**
 * Exchanges a refresh token for an access token and the refresh token that replaces it, which
 * keeps the family's expiry: refreshing never lengthens a session. A token that was already
 * replaced is being used by two parties, one of them not the user, so the whole family is
 * revoked and both must sign in again. Developer tokens are exchanged here too (SPEC §9).
 */
export async function refreshAccessToken(
  ctx: PublicContext,
  deps: AuthDeps,
  refreshToken: string,
  now = new Date(),
): Promise<RefreshAccessTokenResponse> {
  // A developer token is exchanged on its own terms: it does not rotate, so it has no family
  // whose reuse could be detected.
  if (isDeveloperToken(refreshToken)) return exchangeDeveloperToken(deps, refreshToken, now);
  const outcome = await deps.db.transaction().execute(async (trx) => {
    const token = await lockRefreshToken(trx, hashRefreshToken(refreshToken));
    if (!token) return undefined;
    if (token.rotated_at) {
      await revokeRefreshTokenFamily(trx, token.family_id, now);
      await recordAuditEntry(trx, {
        action: 'auth.refresh_token_reused',
        actorUserId: token.user_id,
        actorEmail: token.email,
        organizationId: token.organization_id,
        target: `user:${token.user_id}`,
        ip: ctx.ip,
      });
      return undefined;
    }
    // A pending sign-up never holds a session, so its token counts for nothing.
    if (token.revoked_at || token.expires_at <= now || !token.email_confirmed_at) return undefined;
    const next = newRefreshToken();
    await markRefreshTokenRotated(trx, token.id, now);
    await insertRefreshToken(trx, {
      userId: token.user_id,
      tokenHash: next.hash,
      expiresAt: token.expires_at,
      familyId: token.family_id,
    });
    return { token, refreshToken: next.token };
  });
  if (!outcome) throw new AppError('Unauthorized', 'The refresh token is not valid');
  const accessToken = await deps.tokens.signAccessToken({
    userId: outcome.token.user_id,
    organizationId: outcome.token.organization_id,
    role: outcome.token.role,
    sessionEpoch: outcome.token.session_epoch,
  });
  return { accessToken, refreshToken: outcome.refreshToken };
}

/**
 * Deletes expired refresh tokens, of which rotation leaves one per refresh. A family's tokens
 * all share its expiry, so a family goes whole, and an expired token proves nothing anyway.
 */
export async function pruneRefreshTokens(db: Db, now = new Date()): Promise<void> {
  await deleteRefreshTokensExpiredBefore(db, now);
}

export async function logout(deps: AuthDeps, refreshToken: string | undefined, now = new Date()): Promise<void> {
  if (refreshToken) await revokeRefreshToken(deps.db, hashRefreshToken(refreshToken), now);
}

/**
 * A server key: the configured value when set (`JWT_SECRET`, `MFA_ENCRYPTION_KEY`), otherwise
 * one generated once and kept in the database under `name`, so every server process on that
 * database agrees on it.
 */
export async function loadServerSecret(db: Db, name: 'jwt' | 'mfa', configured: string | undefined): Promise<string> {
  if (configured) return configured;
  await insertSecretIfAbsent(db, name, randomBytes(32).toString('base64url'));
  const stored = await findSecret(db, name);
  if (!stored) throw new Error(`The ${name} secret could not be stored`);
  return stored;
}

/**
 * Signs the user out everywhere but the session of refresh token hash `exceptHash`: its refresh
 * tokens are revoked and its access tokens stop working. Returns the new session epoch.
 */
export async function endSessionsOfUser(db: Db, userId: string, now: Date, exceptHash?: string): Promise<number> {
  return endUserSessions(db, userId, now, exceptHash);
}
