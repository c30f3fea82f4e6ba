import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // One Bitcoin transaction paying the on-chain payouts of one run. It is written, with its txid,
  // before anything is broadcast: a run that dies after broadcasting finds the txid here and asks
  // the chain about it before building anything new, so a batch is never paid twice.
  //   awaiting_signature: an unsigned PSBT waits for the operator's wallet (no hot wallet);
  //   signed: the raw transaction is ready and is (re)broadcast until the chain knows it;
  //   broadcast: the chain has it (mempool or a block); confirmed: deep enough that the job stops
  //   following it (its confirmations, kept up to date until then, are the payouts' history).
  await db.schema
    .createTable('onchain_payout_batches')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('state', 'text', (c) =>
      c.notNull().check(sql`state in ('awaiting_signature', 'signed', 'broadcast', 'confirmed')`),
    )
    // Segwit inputs only, so the txid is fixed before signing and a signed PSBT must keep it.
    .addColumn('txid', 'text', (c) => c.notNull().unique())
    .addColumn('psbt', 'text', (c) => c.notNull())
    .addColumn('raw_tx', 'text')
    .addColumn('fee_sats', 'bigint', (c) => c.notNull())
    .addColumn('fee_rate_sat_per_kvb', 'bigint', (c) => c.notNull())
    .addColumn('vsize', 'integer', (c) => c.notNull())
    // The platform-wallet outputs spent, as {txid, vout, valueSats, address, change, index}.
    .addColumn('inputs', 'jsonb', (c) => c.notNull())
    .addColumn('change_address', 'text')
    .addColumn('change_index', 'integer')
    .addColumn('change_sats', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('block_height', 'integer')
    .addColumn('confirmations', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('last_error', 'text')
    .addColumn('broadcast_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`create index onchain_payout_batches_open_idx on onchain_payout_batches (created_at) where state <> 'confirmed'`.execute(
    db,
  );

  await db.schema
    .alterTable('payouts')
    .addColumn('batch_id', 'uuid', (c) => c.references('onchain_payout_batches.id'))
    .execute();
  await sql`create index payouts_batch_idx on payouts (batch_id) where batch_id is not null`.execute(db);

  // The devnet chain learns real transactions: an output spent by a broadcast one is marked so,
  // and is no longer offered as unspent.
  await db.schema.alterTable('devnet_chain_outputs').addColumn('spent_by_txid', 'text').execute();
}
