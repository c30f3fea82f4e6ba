import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // A fee bump replaces a batch's transaction with one spending the same coins at a higher fee
  // (BIP 125). The batch row holds the newest; each transaction it replaced is kept here, whole,
  // because until one of them is mined any may be: a replacement the node refuses leaves the old
  // one in the mempool, and a block may take the old one first. The payout run asks the chain
  // about each, and a mined one is taken back as the batch's transaction.
  await db.schema
    .createTable('onchain_batch_versions')
    .addColumn('txid', 'text', (c) => c.primaryKey())
    .addColumn('batch_id', 'uuid', (c) => c.notNull().references('onchain_payout_batches.id').onDelete('cascade'))
    .addColumn('psbt', 'text', (c) => c.notNull())
    .addColumn('raw_tx', 'text')
    .addColumn('fee_sats', 'bigint', (c) => c.notNull())
    .addColumn('fee_rate_sat_per_kvb', 'bigint', (c) => c.notNull())
    .addColumn('vsize', 'integer', (c) => c.notNull())
    .addColumn('inputs', 'jsonb', (c) => c.notNull())
    .addColumn('change_address', 'text')
    .addColumn('change_index', 'integer')
    .addColumn('change_sats', 'bigint', (c) => c.notNull())
    .addColumn('replaced_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`create index onchain_batch_versions_batch_idx on onchain_batch_versions (batch_id)`.execute(db);
}
