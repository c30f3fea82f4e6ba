import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // A refund is also sent on-chain to a Bitcoin address the customer gives (decision 0063): as a
  // transaction of the platform wallet kept with the payout batches, so the same pass broadcasts
  // it and asks the chain for its txid first. The batch is written before anything is sent.
  await sql`alter table refunds drop constraint refunds_method_check`.execute(db);
  await sql`alter table refunds add constraint refunds_method_check
    check (method in ('lnurl-withdraw', 'lightning-invoice', 'lightning-address', 'onchain-address'))`.execute(db);
  await db.schema
    .alterTable('refunds')
    .addColumn('batch_id', 'uuid', (c) => c.references('onchain_payout_batches.id'))
    .execute();
  await sql`alter table refunds add constraint refunds_onchain_has_batch
    check ((method = 'onchain-address') = (batch_id is not null))`.execute(db);
  await sql`create unique index refunds_batch_idx on refunds (batch_id) where batch_id is not null`.execute(db);
}
