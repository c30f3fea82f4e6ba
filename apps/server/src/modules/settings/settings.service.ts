import { AppError, type ChangePasswordRequest } from '@rayo/shared';
import type { Db } from '../../db/database.ts';
import { insertAuditEntry } from '../audit/audit.repo.ts';
import { revokeUserRefreshTokens } from '../auth/auth.repo.ts';
import { hashPassword, verifyPassword } from '../auth/passwords.ts';
import { hashRefreshToken } from '../auth/tokens.ts';
import { findUserCredentials, updateUserPassword } from '../users/users.repo.ts';

/**
 * Replaces the caller's password after checking the current one, and ends the user's other
 * sessions: every refresh token but the one the caller sent is revoked, so other devices sign
 * in again once their access token expires. The audit log records the change, never the password.
 */
export async function changePassword(
  db: Db,
  userId: string,
  request: ChangePasswordRequest,
  ip: string,
  now = new Date(),
): Promise<void> {
  const user = await findUserCredentials(db, { userId });
  // An access token outlives a deleted user until it expires.
  if (!user) throw new AppError('Unauthorized', 'The user no longer exists');
  if (!(await verifyPassword(request.currentPassword, user.password_hash))) {
    throw new AppError('WrongCurrentPassword', 'The current password is not correct');
  }
  const passwordHash = await hashPassword(request.newPassword);
  const keep = request.refreshToken ? hashRefreshToken(request.refreshToken) : undefined;
  await db.transaction().execute(async (trx) => {
    await updateUserPassword(trx, user.id, passwordHash);
    await revokeUserRefreshTokens(trx, user.id, now, keep);
    await insertAuditEntry(trx, {
      action: 'settings.password_changed',
      actorUserId: user.id,
      actorEmail: user.email,
      organizationId: user.organization_id,
      target: `user:${user.id}`,
      ip,
    });
  });
}
