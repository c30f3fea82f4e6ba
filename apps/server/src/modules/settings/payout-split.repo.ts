import type { PayoutSplit, VerificationEntries } from '@rayo/shared';
import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';

/** What the split settings read of an organization: its split, currency and verifications. */
export type PayoutSplitRow = {
  currency: string;
  payout_fiat_bps: number;
  payout_onchain_bps: number;
  payout_lightning_bps: number;
  bank_verified: boolean;
  crypto_verified: boolean;
  disbursement_address_verified: boolean;
  conversion_address_verified: boolean;
  kyb_verified: boolean;
};

/**
 * The organization's split settings. `lock` takes the row for the rest of the transaction, so a
 * change checks the verifications that are in force when it commits, not ones back office has
 * just withdrawn.
 */
export async function findPayoutSplitSettings(
  db: Db,
  organizationId: string,
  options: { lock?: boolean } = {},
): Promise<PayoutSplitRow | undefined> {
  let query = db
    .selectFrom('organizations')
    .select([
      'currency',
      'payout_fiat_bps',
      'payout_onchain_bps',
      'payout_lightning_bps',
      'bank_verified',
      'crypto_verified',
      'disbursement_address_verified',
      'conversion_address_verified',
      'kyb_verified',
    ])
    .where('id', '=', organizationId);
  if (options.lock) query = query.forUpdate();
  return query.executeTakeFirst();
}

/** The split a sale settles with: the organization's at the moment of settlement. */
export async function findOrganizationPayoutSplit(db: Db, organizationId: string): Promise<PayoutSplit> {
  const row = await db
    .selectFrom('organizations')
    .select(['payout_fiat_bps', 'payout_onchain_bps', 'payout_lightning_bps'])
    .where('id', '=', organizationId)
    .executeTakeFirstOrThrow();
  return { fiatBps: row.payout_fiat_bps, onchainBps: row.payout_onchain_bps, lightningBps: row.payout_lightning_bps };
}

export async function updatePayoutSplit(db: Db, organizationId: string, split: PayoutSplit): Promise<void> {
  await db
    .updateTable('organizations')
    .set({
      payout_fiat_bps: split.fiatBps,
      payout_onchain_bps: split.onchainBps,
      payout_lightning_bps: split.lightningBps,
    })
    .where('id', '=', organizationId)
    .execute();
}

/** What each organization has entered of what back office verifies, by organization id. */
export async function listVerificationEntries(
  db: Db,
  organizationIds: readonly string[],
): Promise<Map<string, VerificationEntries>> {
  if (organizationIds.length === 0) return new Map();
  const { rows } = await sql<VerificationEntries & { id: string }>`
    select o.id,
      exists (select 1 from banking_info b where b.organization_id = o.id) as "bankAccount",
      o.onchain_address is not null as "onchainAddress",
      o.lightning_address is not null as "lightningAddress",
      exists (select 1 from kyb_documents k where k.organization_id = o.id) as "kybDocument"
    from organizations o
    where o.id = any(${organizationIds}::uuid[])
  `.execute(db);
  return new Map(rows.map(({ id, ...entries }) => [id, entries]));
}
