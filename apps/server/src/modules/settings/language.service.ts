import { AppError, type Language } from '@rayo/shared';
import type { Db } from '../../db/database.ts';
import { insertAuditEntry } from '../audit/audit.repo.ts';
import type { AccessClaims } from '../auth/tokens.ts';
import { findUserById, updateUserLanguage } from '../users/users.repo.ts';

/**
 * Sets the caller's own language. Sign-in answers it (SPEC §7), so the user sees it on any
 * device; the web app switches at once without waiting for that.
 */
export async function changeLanguage(db: Db, caller: AccessClaims, language: Language, ip: string): Promise<void> {
  const user = await findUserById(db, caller.userId);
  // An access token outlives a deleted user until it expires.
  if (!user) throw new AppError('Unauthorized', 'The user no longer exists');
  await db.transaction().execute(async (trx) => {
    await updateUserLanguage(trx, user.id, language);
    await insertAuditEntry(trx, {
      action: 'settings.language_changed',
      actorUserId: user.id,
      actorEmail: user.email,
      organizationId: user.organization_id,
      target: `user:${user.id}`,
      before: { language: user.language },
      after: { language },
      ip,
    });
  });
}
