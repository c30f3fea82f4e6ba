import type { BankingInfoMetadata, PayoutDestinationKind } from '@rayo/shared';
import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { PayoutDestinationValue } from '../../db/schema.ts';

export type DestinationChangeRow = {
  id: string;
  organization_id: string;
  kind: PayoutDestinationKind;
  before_value: PayoutDestinationValue | null;
  before_verified: boolean;
  after_value: PayoutDestinationValue;
  changed_at: Date;
  release_at: Date | null;
  cancelled_at: Date | null;
};

const COLUMNS = [
  'id',
  'organization_id',
  'kind',
  'before_value',
  'before_verified',
  'after_value',
  'changed_at',
  'release_at',
  'cancelled_at',
] as const;

/** Written in the transaction of the change itself, the organization's row locked. */
export async function insertDestinationChange(
  db: Db,
  change: {
    organizationId: string;
    kind: PayoutDestinationKind;
    before: PayoutDestinationValue | null;
    beforeVerified: boolean;
    after: PayoutDestinationValue;
    changedByUserId: string;
    changedByEmail: string | null;
    cancelTokenHash: string;
  },
): Promise<DestinationChangeRow> {
  return db
    .insertInto('payout_destination_changes')
    .values({
      organization_id: change.organizationId,
      kind: change.kind,
      before_value: change.before === null ? null : JSON.stringify(change.before),
      before_verified: change.beforeVerified,
      after_value: JSON.stringify(change.after),
      changed_by_user_id: change.changedByUserId,
      changed_by_email: change.changedByEmail,
      cancel_token_hash: change.cancelTokenHash,
    })
    .returning(COLUMNS)
    .executeTakeFirstOrThrow();
}

/** Every admin was mailed: the cool-down runs until `releaseAt`, unless the change was cancelled meanwhile. */
export async function markAdminsMailed(db: Db, id: string, mailedAt: Date, releaseAt: Date): Promise<void> {
  await db
    .updateTable('payout_destination_changes')
    .set({ admins_mailed_at: mailedAt, release_at: releaseAt })
    .where('id', '=', id)
    .where('cancelled_at', 'is', null)
    .execute();
}

export type DestinationState = {
  organization_id: string;
  kind: PayoutDestinationKind;
  verified: boolean;
  change_id: string;
  changed_at: Date;
  release_at: Date | null;
};

/**
 * For each of the organizations, each destination of `kinds` with a change on record: back
 * office's verification of it, and its newest change that was not cancelled.
 */
export async function listDestinationStates(
  db: Db,
  organizationIds: readonly string[],
  kinds: readonly PayoutDestinationKind[],
): Promise<DestinationState[]> {
  if (organizationIds.length === 0 || kinds.length === 0) return [];
  const rows = await db
    .selectFrom('payout_destination_changes as c')
    .innerJoin('organizations as o', 'o.id', 'c.organization_id')
    .distinctOn(['c.organization_id', 'c.kind'])
    .select([
      'c.organization_id',
      'c.kind',
      'c.id as change_id',
      'c.changed_at',
      'c.release_at',
      sql<boolean>`case c.kind
        when 'lightning' then o.disbursement_address_verified
        when 'onchain' then o.crypto_verified
        else o.bank_verified end`.as('verified'),
    ])
    .where('c.organization_id', 'in', organizationIds)
    .where('c.kind', 'in', kinds)
    .where('c.cancelled_at', 'is', null)
    .orderBy('c.organization_id')
    .orderBy('c.kind')
    .orderBy('c.changed_at', 'desc')
    .orderBy('c.id', 'desc')
    .execute();
  return rows;
}

/** Takes the organization's row, as every change of a destination does, so that they follow one another. */
export async function lockOrganizationDestinations(db: Db, organizationId: string): Promise<boolean> {
  const row = await db
    .selectFrom('organizations')
    .select('id')
    .where('id', '=', organizationId)
    .forUpdate()
    .executeTakeFirst();
  return row !== undefined;
}

export async function findDestinationChangeByTokenHash(
  db: Db,
  tokenHash: string,
): Promise<DestinationChangeRow | undefined> {
  return db
    .selectFrom('payout_destination_changes')
    .select(COLUMNS)
    .where('cancel_token_hash', '=', tokenHash)
    .executeTakeFirst();
}

export async function findOrganizationDestinationChange(
  db: Db,
  organizationId: string,
  id: string,
): Promise<DestinationChangeRow | undefined> {
  return db
    .selectFrom('payout_destination_changes')
    .select(COLUMNS)
    .where('organization_id', '=', organizationId)
    .where('id', '=', id)
    .executeTakeFirst();
}

/** Cancels the change and every later one of the same destination; returns how many. */
export async function cancelDestinationChangesFrom(
  db: Db,
  change: Pick<DestinationChangeRow, 'organization_id' | 'kind' | 'changed_at'>,
  now: Date,
): Promise<number> {
  const result = await db
    .updateTable('payout_destination_changes')
    .set({ cancelled_at: now })
    .where('organization_id', '=', change.organization_id)
    .where('kind', '=', change.kind)
    .where('changed_at', '>=', change.changed_at)
    .where('cancelled_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Puts an address back, with back office's verification as it was. */
export async function restoreAddress(
  db: Db,
  organizationId: string,
  kind: 'lightning' | 'onchain',
  address: string | null,
  verified: boolean,
): Promise<void> {
  await db
    .updateTable('organizations')
    .set(
      kind === 'lightning'
        ? { lightning_address: address, disbursement_address_verified: verified }
        : { onchain_address: address, crypto_verified: verified },
    )
    .where('id', '=', organizationId)
    .execute();
}

/** Puts the bank account back (or removes it, when there was none), with its verification as it was. */
export async function restoreBankAccount(
  db: Db,
  organizationId: string,
  metadata: BankingInfoMetadata | null,
  verified: boolean,
): Promise<void> {
  if (metadata === null) {
    await db.deleteFrom('banking_info').where('organization_id', '=', organizationId).execute();
  } else {
    await db
      .updateTable('banking_info')
      .set({ metadata: JSON.stringify(metadata), updated_at: new Date() })
      .where('organization_id', '=', organizationId)
      .execute();
  }
  await db.updateTable('organizations').set({ bank_verified: verified }).where('id', '=', organizationId).execute();
}
