import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // The devnet chain keeps whole transactions, as a node does: a payment from the devnet wallet is
  // a real (coinbase-shaped) transaction, so its txid is its hash and a wallet asking for it as a
  // PSBT's previous transaction gets it; a broadcast one keeps its fee, size and inputs, so a
  // replacement can be judged by Bitcoin Core's rules. Outputs stay in devnet_chain_outputs.
  await db.schema
    .createTable('devnet_chain_transactions')
    .addColumn('txid', 'text', (c) => c.primaryKey())
    .addColumn('raw_hex', 'text', (c) => c.notNull())
    .addColumn('fee_sats', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('vsize', 'integer', (c) => c.notNull())
    // Null while in the mempool.
    .addColumn('block_height', 'integer', (c) => c.references('devnet_chain_blocks.height'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`create index devnet_chain_transactions_mempool_idx on devnet_chain_transactions (txid) where block_height is null`.execute(
    db,
  );
}
