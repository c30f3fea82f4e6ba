import { randomBytes } from 'node:crypto';
import {
  AppError,
  type BankingInfoMetadata,
  type CancelledDestinationChange,
  type PayoutDestinationKind,
} from '@rayo/shared';
import type { LightningBackend } from '../../adapters/lightning/types.ts';
import type { Mailer } from '../../adapters/mail/mailer.ts';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/database.ts';
import type { PayoutDestinationValue } from '../../db/schema.ts';
import { maskBankingInfo } from '../../domain/banking-info.ts';
import { coolDownEnd } from '../../domain/payout-destination-hold.ts';
import type { PublicContext, RequestContext } from '../../http/request-context.ts';
import { organizationOf } from '../accounts/accounts.service.ts';
import { recordAuditEntry } from '../audit/audit.service.ts';
import { sha256Hex } from '../auth/tokens.ts';
import { notifyBackOffice } from '../notifications/notifications.service.ts';
import { findOrganizationById } from '../organizations/organizations.service.ts';
import { cancelPayoutsToOldAddress } from '../payouts/payout-cancel.service.ts';
import { listOrganizationAdmins } from '../users/users.service.ts';
import {
  cancelDestinationChangesFrom,
  type DestinationChangeRow,
  findDestinationChangeByTokenHash,
  findOrganizationDestinationChange,
  insertDestinationChange,
  lockOrganizationDestinations,
  markAdminsMailed,
  restoreAddress,
  restoreBankAccount,
} from './payout-destination-changes.repo.ts';
import { destinationChangeMail } from './payout-destination-mails.ts';

export type DestinationChangeDeps = {
  db: Db;
  config: Pick<Config, 'publicUrl' | 'payouts'>;
  mailer: Mailer;
};

export type DestinationCancelDeps = { db: Db; lightning: Pick<LightningBackend, 'lookupPayment'> };

type Log = { warn: (details: object, message: string) => void };

/** The public page the mailed link opens, which asks before it cancels (mail scanners follow links). */
export const CANCEL_DESTINATION_CHANGE_PATH = '/cancel-payout-change';

/** A change recorded in its own transaction, with the secret of its cancel link, mailed once it commits. */
export type RecordedDestinationChange = { row: DestinationChangeRow; cancelToken: string; changedBy: string | null };

/**
 * Records a change of a payout destination, in the transaction that writes it (the organization's
 * row locked). Until `announceDestinationChange` has mailed every admin it waits for back office.
 */
export async function recordDestinationChange(
  trx: Db,
  change: {
    organizationId: string;
    kind: PayoutDestinationKind;
    before: PayoutDestinationValue | null;
    beforeVerified: boolean;
    after: PayoutDestinationValue;
    actor: { userId: string; email: string | null };
  },
): Promise<RecordedDestinationChange> {
  const cancelToken = randomBytes(32).toString('base64url');
  const row = await insertDestinationChange(trx, {
    organizationId: change.organizationId,
    kind: change.kind,
    before: change.before,
    beforeVerified: change.beforeVerified,
    after: change.after,
    changedByUserId: change.actor.userId,
    changedByEmail: change.actor.email,
    cancelTokenHash: sha256Hex(cancelToken),
  });
  return { row, cancelToken, changedBy: change.actor.email };
}

function shown(value: PayoutDestinationValue | null): string | null {
  if (value === null) return null;
  if (typeof value === 'string') return value;
  const masked = maskBankingInfo(value);
  return [masked.bank, masked.accountName, masked.accountNumber].filter(Boolean).join(', ');
}

/**
 * Mails every admin of the organization about a committed change, with the link that cancels it,
 * and starts its cool-down. When a mail cannot be sent the change keeps waiting for back office's
 * verification: a change nobody was told of never releases by time alone.
 */
export async function announceDestinationChange(
  deps: DestinationChangeDeps,
  change: RecordedDestinationChange,
  log: Log,
  now = new Date(),
): Promise<void> {
  const { row } = change;
  const organization = await findOrganizationById(deps.db, row.organization_id);
  const admins = await listOrganizationAdmins(deps.db, row.organization_id);
  const releaseAt = coolDownEnd(now, deps.config.payouts.destinationCoolDownHours);
  const link = new URL(CANCEL_DESTINATION_CHANGE_PATH, deps.config.publicUrl);
  link.searchParams.set('token', change.cancelToken);
  const notice = {
    organizationName: organization?.name ?? '',
    kind: row.kind,
    before: shown(row.before_value),
    after: shown(row.after_value) ?? '',
    changedBy: change.changedBy,
    changedAt: row.changed_at,
    releaseAt,
    cancelLink: link.toString(),
  };
  try {
    for (const admin of admins) await deps.mailer.send(destinationChangeMail(admin.email, admin.language, notice));
  } catch (error) {
    log.warn({ err: error, changeId: row.id }, 'payout destination change not mailed; it waits for back office');
    return;
  }
  if (admins.length > 0) await markAdminsMailed(deps.db, row.id, now, releaseAt);
}

/**
 * Cancels `change` and every later change of the same destination, and puts back what it replaced
 * with back office's verification as it was. Open Lightning payouts elsewhere than the address put
 * back are cancelled when no payment of them can still complete. Possible until payouts to the
 * new destination would start; audited and told to back office.
 */
async function cancelChange(
  ctx: PublicContext,
  deps: DestinationCancelDeps,
  find: (trx: Db) => Promise<DestinationChangeRow | undefined>,
  actor: { userId: string | null; email: string | null; via: 'mail' | 'settings' },
  now: Date,
): Promise<CancelledDestinationChange> {
  return deps.db.transaction().execute(async (trx) => {
    const found = await find(trx);
    if (!found) throw new AppError('InvalidCode', 'This link is not valid');
    await lockOrganizationDestinations(trx, found.organization_id);
    const change = await findOrganizationDestinationChange(trx, found.organization_id, found.id);
    if (!change) throw new AppError('InvalidCode', 'This link is not valid');
    if (change.cancelled_at !== null) {
      throw new AppError('DestinationChangeNotCancellable', 'This change was cancelled already');
    }
    if (change.release_at !== null && change.release_at <= now) {
      throw new AppError(
        'DestinationChangeNotCancellable',
        'Payouts to this destination have started; change it again in Settings instead',
      );
    }
    const cancelled = await cancelDestinationChangesFrom(trx, change, now);
    if (change.kind === 'bank') {
      await restoreBankAccount(
        trx,
        change.organization_id,
        change.before_value as BankingInfoMetadata | null,
        change.before_verified,
      );
    } else {
      const address = change.before_value as string | null;
      await restoreAddress(trx, change.organization_id, change.kind, address, change.before_verified);
      if (change.kind === 'lightning') {
        await cancelPayoutsToOldAddress(ctx, trx, deps.lightning, {
          organizationId: change.organization_id,
          newAddress: address,
          actorUserId: actor.userId,
          actorEmail: actor.email,
        });
      }
    }
    const before = { [change.kind]: shown(change.after_value) };
    const after = { [change.kind]: shown(change.before_value) };
    await recordAuditEntry(trx, {
      action: 'settings.payout_destination_change_cancelled',
      actorUserId: actor.userId,
      actorEmail: actor.email,
      organizationId: change.organization_id,
      target: `payout_destination_change:${change.id}`,
      before,
      after: { ...after, via: actor.via, changesCancelled: cancelled },
      ip: ctx.ip,
    });
    await notifyBackOffice(trx, {
      organizationId: change.organization_id,
      kind: 'settings.payout_destination_change_cancelled',
      payload: { destination: change.kind, cancelledBy: actor.email, before, after },
    });
    return { kind: change.kind };
  });
}

/** The mailed link: whoever reads an admin's mail may cancel, without signing in. */
export async function cancelDestinationChangeByLink(
  ctx: PublicContext,
  deps: DestinationCancelDeps,
  token: string,
  now = new Date(),
): Promise<CancelledDestinationChange> {
  return cancelChange(
    ctx,
    deps,
    (trx) => findDestinationChangeByTokenHash(trx, sha256Hex(token)),
    { userId: null, email: null, via: 'mail' },
    now,
  );
}

/** An admin cancels from the payouts screen. */
export async function cancelDestinationChange(
  ctx: RequestContext,
  deps: DestinationCancelDeps,
  id: string,
  now = new Date(),
): Promise<CancelledDestinationChange> {
  const organizationId = organizationOf(ctx);
  const found = await findOrganizationDestinationChange(deps.db, organizationId, id);
  if (!found) throw new AppError('NotFound', 'No such change');
  return cancelChange(
    ctx,
    deps,
    async () => found,
    { userId: ctx.userId, email: ctx.actorEmail, via: 'settings' },
    now,
  );
}
