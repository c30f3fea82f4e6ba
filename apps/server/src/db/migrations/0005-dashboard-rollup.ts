import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // Pages are read newest first with `id` breaking ties, so both orderings end in the index
  // and a page of 10 reads 10 index entries, whatever the period. The old
  // (organization_id, settled_at) index is a prefix of the first one and goes.
  await sql`create index transactions_org_settled_id_idx on transactions (organization_id, settled_at desc, id desc)`.execute(
    db,
  );
  await sql`create index transactions_org_account_settled_id_idx on transactions (organization_id, account_id, settled_at desc, id desc)`.execute(
    db,
  );
  await sql`drop index transactions_org_settled_idx`.execute(db);

  // One row per organization, account, local day (the organization's time zone) and currency:
  // the dashboard's counts, sums and charts read whole days from here instead of scanning up
  // to a million ledger rows. settleInvoice adds each sale in the same database transaction
  // that records it, so the rollup is exactly as complete as the ledger.
  await db.schema
    .createTable('transaction_daily')
    .addColumn('organization_id', 'uuid', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('account_id', 'uuid', (c) => c.notNull().references('accounts.id'))
    .addColumn('day', 'date', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('count', 'bigint', (c) => c.notNull())
    .addColumn('total_msat', 'bigint', (c) => c.notNull())
    .addColumn('bitcoin_to_disburse_msat', 'bigint', (c) => c.notNull())
    .addColumn('total_minor', 'bigint', (c) => c.notNull())
    .addColumn('tip_minor', 'bigint', (c) => c.notNull())
    .addColumn('fiat_to_disburse_minor', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('transaction_daily_pkey', ['organization_id', 'day', 'account_id', 'currency'])
    .execute();

  await sql`
    insert into transaction_daily (organization_id, account_id, day, currency, count, total_msat,
      bitcoin_to_disburse_msat, total_minor, tip_minor, fiat_to_disburse_minor)
    select t.organization_id, t.account_id, (t.settled_at at time zone o.time_zone)::date, t.currency,
      count(*), sum(t.total_msat),
      coalesce(sum(t.onchain_msat + t.lightning_msat) filter (where not t.disbursed), 0),
      sum(t.total_minor), sum(t.tip_minor),
      coalesce(sum(t.fiat_income_minor) filter (where not t.disbursed), 0)
    from transactions t
    join organizations o on o.id = t.organization_id
    group by 1, 2, 3, 4
  `.execute(db);
}
