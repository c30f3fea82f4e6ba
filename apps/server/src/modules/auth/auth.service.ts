import { randomBytes } from 'node:crypto';
import { AppError, type SignInRequest, type SignInResponse, type SignInResult } from '@rayo/shared';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/database.ts';
import type { User } from '../../db/schema.ts';
import { hasMfaEnabled } from '../mfa/mfa.service.ts';
import { findUserByEmail } from '../users/users.repo.ts';
import {
  findSecret,
  findUserByLiveRefreshToken,
  insertRefreshToken,
  insertSecretIfAbsent,
  revokeRefreshToken,
} from './auth.repo.ts';
import { unmatchableHash, verifyPassword } from './passwords.ts';
import { recordFailedSignIn, recordSignIn } from './sign-in-audit.ts';
import { hashRefreshToken, newRefreshToken, type TokenIssuer } from './tokens.ts';

export type AuthDeps = { db: Db; config: Config; tokens: TokenIssuer };

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The password step of sign-in. With MFA on, the answer is a challenge to be exchanged, with a
 * code, for the session (see mfa-sign-in.service.ts); otherwise it is the session itself.
 */
export async function signIn(
  deps: AuthDeps,
  request: SignInRequest,
  ip: string,
  now = new Date(),
): Promise<SignInResult> {
  const user = await findUserByEmail(deps.db, request.email);
  const matches = await verifyPassword(request.password, user?.password_hash ?? unmatchableHash);
  if (!user || !matches) {
    await recordFailedSignIn(deps.db, { email: request.email, user, ip, reason: 'password' });
    throw new AppError('WrongAuth', 'Invalid email or password');
  }
  // Only the owner of the password learns that the address is unconfirmed.
  if (!user.email_confirmed_at) {
    await recordFailedSignIn(deps.db, { email: request.email, user, ip, reason: 'email_not_confirmed' });
    throw new AppError(
      'EmailNotConfirmed',
      'Confirm your email with the link we sent you, or sign up again for a new link',
    );
  }
  if (await hasMfaEnabled(deps.db, user.id)) {
    return { mfaRequired: true, mfaToken: await deps.tokens.signMfaChallenge(user.id) };
  }
  await recordSignIn(deps.db, user, ip, 'password');
  return startSession(deps, user, now);
}

/** A new session for a user whose identity was just proven: a refresh token and an access token. */
export async function startSession(
  deps: AuthDeps,
  user: Pick<User, 'id' | 'organization_id' | 'role' | 'language'>,
  now = new Date(),
): Promise<SignInResponse> {
  const refresh = newRefreshToken();
  await insertRefreshToken(
    deps.db,
    user.id,
    refresh.hash,
    new Date(now.getTime() + deps.config.refreshTokenTtlDays * DAY_MS),
  );
  const accessToken = await deps.tokens.signAccessToken({
    userId: user.id,
    organizationId: user.organization_id,
    role: user.role,
  });
  return { accessToken, refreshToken: refresh.token, role: user.role, language: user.language };
}

export async function refreshAccessToken(
  deps: AuthDeps,
  refreshToken: string,
  now = new Date(),
): Promise<{ accessToken: string }> {
  const user = await findUserByLiveRefreshToken(deps.db, hashRefreshToken(refreshToken), now);
  if (!user) throw new AppError('Unauthorized', 'The refresh token is not valid');
  const accessToken = await deps.tokens.signAccessToken({
    userId: user.id,
    organizationId: user.organization_id,
    role: user.role,
  });
  return { accessToken };
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
