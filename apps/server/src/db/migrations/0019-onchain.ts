import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // The devnet chain lives in the database, so that every server process on it sees the same
  // blocks and the same payments, as they would watching one bitcoind.
  await db.schema
    .createTable('devnet_chain_blocks')
    .addColumn('height', 'integer', (c) => c.primaryKey())
    .addColumn('hash', 'text', (c) => c.notNull().unique())
    .addColumn('mined_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createTable('devnet_chain_outputs')
    .addColumn('txid', 'text', (c) => c.notNull())
    .addColumn('vout', 'integer', (c) => c.notNull())
    .addColumn('address', 'text', (c) => c.notNull())
    .addColumn('value_sats', 'bigint', (c) => c.notNull().check(sql`value_sats > 0`))
    // Null while in the mempool.
    .addColumn('block_height', 'integer', (c) => c.references('devnet_chain_blocks.height'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('devnet_chain_outputs_pk', ['txid', 'vout'])
    .execute();
  await sql`create index devnet_chain_outputs_address_idx on devnet_chain_outputs (address)`.execute(db);

  // The next unused receive index of each wallet: one row per wallet, advanced with
  // `update … returning`, so two processes never hand out the same address.
  await db.schema
    .createTable('onchain_wallet_counters')
    .addColumn('wallet', 'text', (c) => c.primaryKey())
    .addColumn('next_index', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();

  // The address a checkout is paid to on-chain, and what the watcher last saw there. The checkout
  // is not a foreign key, like `invoices.source_id`: the row outlives nothing it points to.
  await db.schema
    .createTable('checkout_onchain_addresses')
    .addColumn('checkout_id', 'uuid', (c) => c.primaryKey())
    .addColumn('organization_id', 'uuid', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('address', 'text', (c) => c.notNull().unique())
    .addColumn('wallet', 'text', (c) => c.notNull())
    .addColumn('derivation_path', 'text', (c) => c.notNull())
    .addColumn('derivation_index', 'integer', (c) => c.notNull())
    .addColumn('amount_sats', 'bigint', (c) => c.notNull().check(sql`amount_sats > 0`))
    .addColumn('rate_minor_per_btc', 'bigint', (c) => c.notNull())
    .addColumn('received_sats', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('confirmations', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('state', 'text', (c) =>
      c
        .notNull()
        .defaultTo('awaiting_payment')
        .check(sql`state in ('awaiting_payment', 'confirming', 'underpaid', 'confirmed')`),
    )
    // Addresses stay watched this long after their last change, so a late payment is still seen.
    .addColumn('watch_until', 'timestamptz', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('checkout_onchain_addresses_wallet_index', ['wallet', 'derivation_index'])
    .execute();
  await sql`create index checkout_onchain_addresses_watch_idx on checkout_onchain_addresses (watch_until)`.execute(db);

  // Every output seen paying a checkout's address, and the invoice that put it in the ledger.
  await db.schema
    .createTable('checkout_onchain_outputs')
    .addColumn('checkout_id', 'uuid', (c) => c.notNull().references('checkout_onchain_addresses.checkout_id'))
    .addColumn('txid', 'text', (c) => c.notNull())
    .addColumn('vout', 'integer', (c) => c.notNull())
    .addColumn('value_sats', 'bigint', (c) => c.notNull())
    .addColumn('block_height', 'integer')
    .addColumn('invoice_id', 'uuid', (c) => c.references('invoices.id'))
    .addColumn('seen_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('checkout_onchain_outputs_pk', ['txid', 'vout'])
    .execute();
  await sql`create index checkout_onchain_outputs_checkout_idx on checkout_onchain_outputs (checkout_id)`.execute(db);
}
