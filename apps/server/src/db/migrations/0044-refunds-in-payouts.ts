import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // The Lightning payout a refund was taken from. Null while the merchant still owes it: the
  // next payout is made smaller by it. A cancelled payout sets its refunds back to null.
  await db.schema
    .alterTable('refunds')
    .addColumn('lightning_payout_id', 'uuid', (c) => c.references('payouts.id').onDelete('set null'))
    .execute();
  await sql`create index refunds_owed_idx on refunds (organization_id) where lightning_payout_id is null`.execute(db);
}
