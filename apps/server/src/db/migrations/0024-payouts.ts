import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // One payout carries the Lightning (or on-chain) shares of several sales to the organization's
  // address. Its state only moves along domain/payout-state.ts, each update guarded by the state
  // it leaves, so two processes cannot both move it.
  await db.schema
    .createTable('payouts')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('organization_id', 'uuid', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('lightning', 'onchain')`))
    .addColumn('destination', 'text', (c) => c.notNull())
    .addColumn('amount_msat', 'bigint', (c) => c.notNull().check(sql`amount_msat > 0`))
    .addColumn('fee_msat', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('state', 'text', (c) =>
      c.notNull().defaultTo('pending').check(sql`state in ('pending', 'sent', 'failed', 'cancelled')`),
    )
    // What the backend is told with every attempt, so a retry can ask it about this very payout.
    .addColumn('idempotency_key', 'text', (c) => c.notNull().unique())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('last_error', 'text')
    // The invoice the recipient's service issued. Stored before it is paid: from then on the
    // backend may know of a payment, and every later attempt asks it first.
    .addColumn('payment_request', 'text')
    .addColumn('payment_hash', 'text')
    .addColumn('invoice_expires_at', 'timestamptz')
    .addColumn('preimage', 'text')
    .addColumn('txid', 'text')
    .addColumn('sent_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`create index payouts_organization_idx on payouts (organization_id, created_at desc, id desc)`.execute(db);
  await sql`create index payouts_due_idx on payouts (next_attempt_at) where state in ('pending', 'failed')`.execute(db);

  // Which sale's share a payout carries. The primary key is the rule "a sale's share is in one
  // payout at most"; a cancelled payout gives its shares back by deleting its rows.
  await db.schema
    .createTable('payout_transactions')
    .addColumn('transaction_id', 'uuid', (c) => c.notNull().references('transactions.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('lightning', 'onchain')`))
    .addColumn('payout_id', 'uuid', (c) => c.notNull().references('payouts.id').onDelete('cascade'))
    .addColumn('amount_msat', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('payout_transactions_pkey', ['transaction_id', 'kind'])
    .execute();
  await sql`create index payout_transactions_payout_idx on payout_transactions (payout_id)`.execute(db);
}
