import { AppError, type Language } from '@rayo/shared';
import type { Db } from '../../db/database.ts';
import type { RequestContext } from '../../http/request-context.ts';
import { audit } from '../audit/audit.service.ts';
import { findUserById, setUserLanguage } from '../users/users.service.ts';

/**
 * Sets the caller's own language. Sign-in answers it (SPEC §7), so the user sees it on any
 * device; the web app switches at once without waiting for that.
 */
export async function changeLanguage(ctx: RequestContext, db: Db, language: Language): Promise<void> {
  const user = await findUserById(db, ctx.userId);
  // An access token outlives a deleted user until it expires.
  if (!user) throw new AppError('Unauthorized', 'The user no longer exists');
  await db.transaction().execute(async (trx) => {
    await setUserLanguage(trx, user.id, language);
    await audit(ctx, trx, 'settings.language_changed', {
      organizationId: user.organization_id,
      target: `user:${user.id}`,
      before: { language: user.language },
      after: { language },
    });
  });
}
