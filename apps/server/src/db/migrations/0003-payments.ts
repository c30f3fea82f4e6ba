import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('bpts')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('organization_id', 'uuid', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('account_id', 'uuid', (c) => c.notNull().references('accounts.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('channel', 'text', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('shareable', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('share_token', 'text', (c) => c.unique())
    .addColumn('tip_enabled', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('tax_bps', 'integer', (c) => c.notNull().defaultTo(0).check(sql`tax_bps between 0 and 10000`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    // Deleted terminals keep their sales; they only leave the lists.
    .addColumn('deleted_at', 'timestamptz')
    .execute();
  await db.schema.createIndex('bpts_organization_idx').on('bpts').column('organization_id').execute();

  await db.schema
    .createTable('invoices')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('organization_id', 'uuid', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('account_id', 'uuid', (c) => c.notNull().references('accounts.id'))
    .addColumn('bpt_id', 'uuid', (c) => c.references('bpts.id'))
    .addColumn('payment_hash', 'text', (c) => c.notNull().unique())
    .addColumn('payment_request', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('amount_msat', 'bigint', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('bill_minor', 'bigint', (c) => c.notNull())
    .addColumn('tip_minor', 'bigint', (c) => c.notNull())
    .addColumn('tax_minor', 'bigint', (c) => c.notNull())
    .addColumn('total_minor', 'bigint', (c) => c.notNull())
    .addColumn('rate_minor_per_btc', 'bigint', (c) => c.notNull())
    .addColumn('status', 'text', (c) =>
      c.notNull().defaultTo('pending').check(sql`status in ('pending', 'settled', 'expired', 'cancelled')`),
    )
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('settled_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('invoices_bpt_created_idx').on('invoices').columns(['bpt_id', 'created_at']).execute();
  await sql`create index invoices_pending_idx on invoices (expires_at) where status = 'pending'`.execute(db);

  await db.schema
    .createTable('transactions')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('invoice_id', 'uuid', (c) => c.notNull().unique().references('invoices.id'))
    // Unique: a payment is recorded once, whatever path reports it.
    .addColumn('payment_hash', 'text', (c) => c.notNull().unique())
    .addColumn('organization_id', 'uuid', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('account_id', 'uuid', (c) => c.notNull().references('accounts.id'))
    .addColumn('bpt_id', 'uuid', (c) => c.references('bpts.id'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('settled_at', 'timestamptz', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('bill_minor', 'bigint', (c) => c.notNull())
    .addColumn('tip_minor', 'bigint', (c) => c.notNull())
    .addColumn('tax_minor', 'bigint', (c) => c.notNull())
    .addColumn('total_minor', 'bigint', (c) => c.notNull())
    .addColumn('total_msat', 'bigint', (c) => c.notNull())
    .addColumn('rate_minor_per_btc', 'bigint', (c) => c.notNull())
    .addColumn('tx_fee_msat', 'bigint', (c) => c.notNull())
    .addColumn('conversion_fee_msat', 'bigint', (c) => c.notNull())
    .addColumn('income_msat', 'bigint', (c) => c.notNull())
    .addColumn('fiat_bps', 'integer', (c) => c.notNull())
    .addColumn('onchain_bps', 'integer', (c) => c.notNull())
    .addColumn('lightning_bps', 'integer', (c) => c.notNull())
    .addColumn('fiat_msat', 'bigint', (c) => c.notNull())
    .addColumn('onchain_msat', 'bigint', (c) => c.notNull())
    .addColumn('lightning_msat', 'bigint', (c) => c.notNull())
    .addColumn('fiat_income_minor', 'bigint', (c) => c.notNull())
    .addColumn('disbursed', 'boolean', (c) => c.notNull().defaultTo(false))
    .addCheckConstraint('transactions_fees_add_up', sql`tx_fee_msat + conversion_fee_msat + income_msat = total_msat`)
    .addCheckConstraint('transactions_split_adds_up', sql`fiat_msat + onchain_msat + lightning_msat = income_msat`)
    .execute();
  await db.schema
    .createIndex('transactions_org_settled_idx')
    .on('transactions')
    .columns(['organization_id', 'settled_at desc'])
    .execute();
  await db.schema
    .createIndex('transactions_bpt_settled_idx')
    .on('transactions')
    .columns(['bpt_id', 'settled_at desc'])
    .execute();

  await db.schema
    .createTable('lightning_cursors')
    .addColumn('backend', 'text', (c) => c.primaryKey())
    .addColumn('settle_index', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('rates')
    .addColumn('currency', 'text', (c) => c.primaryKey())
    .addColumn('rate_minor_per_btc', 'bigint', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('fetched_at', 'timestamptz', (c) => c.notNull())
    .execute();

  // The devnet Lightning node keeps its invoices here so that every server process sees them.
  await db.schema
    .createTable('devnet_invoices')
    .addColumn('payment_hash', 'text', (c) => c.primaryKey())
    .addColumn('preimage', 'text', (c) => c.notNull())
    .addColumn('payment_request', 'text', (c) => c.notNull())
    .addColumn('amount_msat', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('settle_index', 'bigint', (c) => c.unique())
    .addColumn('settled_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`create sequence devnet_settle_index_seq`.execute(db);

  // The devnet Bolt Card service's one-time withdraw secrets.
  await db.schema
    .createTable('devnet_withdrawals')
    .addColumn('k1', 'text', (c) => c.primaryKey())
    .addColumn('max_msat', 'bigint', (c) => c.notNull())
    .addColumn('used_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
}
