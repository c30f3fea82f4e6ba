import { AppError, type ChangePasswordRequest, type ChangePasswordResponse } from '@rayo/shared';
import type { Db } from '../../db/database.ts';
import type { RequestContext } from '../../http/request-context.ts';
import { audit } from '../audit/audit.service.ts';
import { endSessionsOfUser } from '../auth/auth.service.ts';
import { hashPassword, verifyPassword } from '../auth/passwords.ts';
import { hashRefreshToken, type TokenIssuer } from '../auth/tokens.ts';
import { findUserCredentials, setUserPassword } from '../users/users.service.ts';
import { revokeDeveloperTokensOfUser } from './developer-tokens.repo.ts';

/**
 * Replaces the caller's password after checking the current one, and ends the user's other
 * sessions: every refresh token but the one the caller sent is revoked, and every access token
 * signed before is refused, the caller's too, who goes on with the access token answered. On
 * request the developer tokens the user made are revoked as well. The audit log records the
 * change, never the password.
 */
export async function changePassword(
  ctx: RequestContext,
  deps: { db: Db; tokens: TokenIssuer },
  request: ChangePasswordRequest,
  now = new Date(),
): Promise<ChangePasswordResponse> {
  const user = await findUserCredentials(deps.db, { userId: ctx.userId });
  // An access token outlives a deleted user until it expires.
  if (!user) throw new AppError('Unauthorized', 'The user no longer exists');
  if (!(await verifyPassword(request.currentPassword, user.password_hash))) {
    throw new AppError('WrongCurrentPassword', 'The current password is not correct');
  }
  const passwordHash = await hashPassword(request.newPassword);
  const keep = request.refreshToken ? hashRefreshToken(request.refreshToken) : undefined;
  const sessionEpoch = await deps.db.transaction().execute(async (trx) => {
    await setUserPassword(trx, user.id, passwordHash);
    const epoch = await endSessionsOfUser(trx, user.id, now, keep);
    const revoked = request.revokeDeveloperTokens ? await revokeDeveloperTokensOfUser(trx, user.id, now) : 0;
    await audit(ctx, trx, 'settings.password_changed', {
      organizationId: user.organization_id,
      target: `user:${user.id}`,
      after: { developerTokensRevoked: revoked },
    });
    return epoch;
  });
  const accessToken = await deps.tokens.signAccessToken({
    userId: user.id,
    organizationId: user.organization_id,
    role: user.role,
    sessionEpoch,
  });
  return { accessToken };
}
