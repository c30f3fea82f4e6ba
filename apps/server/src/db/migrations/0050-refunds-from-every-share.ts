import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // Where each part of a refund was taken from (decision 0057): the on-chain part by an on-chain
  // payout, the fiat part by the fiat transfer back office marks paid. Null while owed, like
  // `lightning_payout_id` of the Lightning part.
  await db.schema
    .alterTable('refunds')
    .addColumn('onchain_payout_id', 'uuid', (c) => c.references('payouts.id').onDelete('set null'))
    .addColumn('fiat_taken_at', 'timestamptz')
    .execute();
  await sql`create index refunds_onchain_owed_idx on refunds (organization_id) where onchain_payout_id is null and onchain_msat > 0`.execute(
    db,
  );
  await sql`create index refunds_fiat_owed_idx on refunds (organization_id) where fiat_taken_at is null and fiat_share_minor > 0`.execute(
    db,
  );
}
