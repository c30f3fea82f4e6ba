import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // A checkout is one thing to be paid once, sold by a virtual BPT: a payment link an admin made,
  // or a store's order. Its invoices (and on-chain payments) point back at it through
  // `invoices.source_id`; the ledger rows are theirs, the checkout only says where it stands.
  await db.schema
    .createTable('checkouts')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('organization_id', 'uuid', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('virtual_bpt_id', 'uuid', (c) => c.notNull().references('virtual_bpts.id'))
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('payment_link', 'store')`))
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('amount_currency', 'text', (c) => c.notNull())
    .addColumn('amount_minor', 'bigint', (c) => c.notNull().check(sql`amount_minor > 0`))
    .addColumn('status', 'text', (c) =>
      c
        .notNull()
        .defaultTo('awaiting_payment')
        .check(sql`status in ('awaiting_payment', 'processing', 'paid', 'expired')`),
    )
    .addColumn('paid_via', 'text', (c) => c.check(sql`paid_via in ('lightning', 'onchain')`))
    .addColumn('paid_at', 'timestamptz')
    // Null for payment links, which stay open until paid or deleted.
    .addColumn('expires_at', 'timestamptz')
    .addColumn('order_id', 'text')
    .addColumn('redirect_url', 'text')
    .addColumn('metadata', 'jsonb')
    .addColumn('late_payment', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('extra_payment', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('deleted_at', 'timestamptz')
    .execute();
  await sql`create index checkouts_virtual_bpt_idx on checkouts (virtual_bpt_id, created_at) where deleted_at is null`.execute(
    db,
  );
  // A store sends its order id again when a shopper retries: it gets the same checkout.
  await sql`create unique index checkouts_store_order_idx on checkouts (organization_id, order_id)
    where kind = 'store' and order_id is not null`.execute(db);
  // 'Link already exists' (SPEC §8): one live link per virtual BPT, description and amount.
  await sql`create unique index checkouts_payment_link_idx
    on checkouts (virtual_bpt_id, description, amount_currency, amount_minor)
    where kind = 'payment_link' and deleted_at is null`.execute(db);
  // The expiry pass looks only at store checkouts still waiting.
  await sql`create index checkouts_expiry_idx on checkouts (expires_at)
    where kind = 'store' and status = 'awaiting_payment'`.execute(db);
}
