import { AppError, type CheckoutProtection } from '@rayo/shared';
import type { Db } from '../../db/database.ts';
import type { RequestContext } from '../../http/request-context.ts';
import { organizationOf } from '../accounts/accounts.service.ts';
import { audit } from '../audit/audit.service.ts';
import type { AccessClaims } from '../auth/tokens.ts';
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
  ctx: RequestContext,
  db: Db,
  request: CheckoutProtection,
): Promise<CheckoutProtection> {
  const organizationId = organizationOf(ctx);
  return db.transaction().execute(async (trx) => {
    const before = await readSetting(trx, organizationId, true);
    await updateCheckoutProtection(trx, organizationId, request.enabled);
    await audit(ctx, trx, 'settings.checkout_protection_changed', {
      organizationId,
      target: `organization:${organizationId}`,
      before: { enabled: before },
      after: { enabled: request.enabled },
    });
    return { enabled: request.enabled };
  });
}

/** Whether the organization refuses store checkouts it cannot verify; undefined for no such organization. */
export async function findOrganizationCheckoutProtection(db: Db, organizationId: string): Promise<boolean | undefined> {
  return findCheckoutProtection(db, organizationId);
}
