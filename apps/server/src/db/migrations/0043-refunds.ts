import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // Money an admin gives back to a sale's customer. The sale's row is locked while a refund is
  // added, so the rule "the refunds of a sale add up to at most what it received" holds under
  // concurrent requests (domain/refunds.ts).
  await db.schema
    .createTable('refunds')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('organization_id', 'uuid', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('transaction_id', 'uuid', (c) => c.notNull().references('transactions.id').onDelete('cascade'))
    .addColumn('amount_msat', 'bigint', (c) => c.notNull().check(sql`amount_msat > 0`))
    // The same share of the sale's charged fiat, so a full refund gives back its exact total.
    .addColumn('fiat_minor', 'bigint', (c) => c.notNull().check(sql`fiat_minor >= 0`))
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('method', 'text', (c) => c.notNull().check(sql`method in ('lnurl-withdraw')`))
    .addColumn('state', 'text', (c) => c.notNull().defaultTo('open').check(sql`state in ('open', 'paying', 'paid')`))
    // Chosen by the caller: a double click or a retry finds the refund it already made.
    .addColumn('idempotency_key', 'text', (c) => c.notNull())
    // The withdraw link's secret (LUD-03 k1): whoever holds it takes the money, once.
    .addColumn('k1', 'text', (c) => c.notNull().unique())
    .addColumn('created_by_user_id', 'uuid', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_by_email', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    // The customer's invoice, stored before it is paid: from then on the node may know of a
    // payment, and every later attempt asks it first, as payouts do.
    .addColumn('payment_request', 'text')
    .addColumn('payment_hash', 'text')
    .addColumn('invoice_expires_at', 'timestamptz')
    .addColumn('preimage', 'text')
    .addColumn('fee_msat', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_error', 'text')
    .addColumn('paid_at', 'timestamptz')
    .addUniqueConstraint('refunds_idempotency_key', ['organization_id', 'idempotency_key'])
    .execute();
  await sql`create index refunds_transaction_idx on refunds (transaction_id, created_at)`.execute(db);
  await sql`create index refunds_paying_idx on refunds (created_at) where state = 'paying'`.execute(db);
}
