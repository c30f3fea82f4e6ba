import { AppError, type CheckoutProtection } from '@rayo/shared';
import type { Db } from '../../db/database.ts';
import { organizationOf } from '../accounts/accounts.service.ts';
import { insertAuditEntry } from '../audit/audit.repo.ts';
import type { AccessClaims } from '../auth/tokens.ts';
import { findUserById } from '../users/users.repo.ts';
import { findCheckoutProtection, updateCheckoutProtection } from './checkout-protection.repo.ts';

async function readSetting(db: Db, organizationId: string, lock = false): Promise<boolean> {
  const enabled = await findCheckoutProtection(db, organizationId, { lock });
  if (enabled === undefined) throw new AppError('NotFound', 'Organization not found');
  return enabled;
}

export async function getCheckoutProtection(db: Db, caller: AccessClaims): Promise<CheckoutProtection> {
  return { enabled: await readSetting(db, organizationOf(caller)) };
}

/**
 * Turns checkout protection on or off (DESIGN §9). Only the setting lives here: the store
 * checkout API (`modules/store-checkouts/`) obeys it.
 */
export async function setCheckoutProtection(
  db: Db,
  caller: AccessClaims,
  request: CheckoutProtection,
  ip: string,
): Promise<CheckoutProtection> {
  const organizationId = organizationOf(caller);
  const actor = await findUserById(db, caller.userId);
  return db.transaction().execute(async (trx) => {
    const before = await readSetting(trx, organizationId, true);
    await updateCheckoutProtection(trx, organizationId, request.enabled);
    await insertAuditEntry(trx, {
      action: 'settings.checkout_protection_changed',
      actorUserId: caller.userId,
      actorEmail: actor?.email ?? null,
      organizationId,
      target: `organization:${organizationId}`,
      before: { enabled: before },
      after: { enabled: request.enabled },
      ip,
    });
    return { enabled: request.enabled };
  });
}
