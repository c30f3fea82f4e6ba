import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // One row per organization and sale currency with what back office pays by hand: the sales
  // with a fiat part, pending (not disbursed) and paid (disbursed), and the platform's fee of
  // every sale in US dollars. The country reports read 1,000 of these rows instead of ten
  // million ledger rows. Settlement adds each sale and marking paid moves it from pending to
  // paid, each in the same database transaction as the ledger change (docs/decisions/0034-back-office-pays-fiat.md).
  await db.schema
    .createTable('disbursement_totals')
    .addColumn('organization_id', 'uuid', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('pending_count', 'bigint', (c) => c.notNull())
    .addColumn('pending_fiat_minor', 'bigint', (c) => c.notNull())
    .addColumn('pending_msat', 'bigint', (c) => c.notNull())
    .addColumn('paid_count', 'bigint', (c) => c.notNull())
    .addColumn('paid_fiat_minor', 'bigint', (c) => c.notNull())
    .addColumn('paid_msat', 'bigint', (c) => c.notNull())
    .addColumn('fee_usd_micros', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('disbursement_totals_pkey', ['organization_id', 'currency'])
    .execute();

  // The unpaid list and a report row's ids: a few days of sales among years of paid ones.
  await sql`create index transactions_unpaid_fiat_idx on transactions (organization_id, settled_at, id)
    where not disbursed and fiat_msat > 0`.execute(db);

  await sql`
    insert into disbursement_totals (organization_id, currency, pending_count, pending_fiat_minor, pending_msat,
      paid_count, paid_fiat_minor, paid_msat, fee_usd_micros)
    select t.organization_id, t.currency,
      count(*) filter (where t.fiat_msat > 0 and not t.disbursed),
      coalesce(sum(t.fiat_income_minor) filter (where t.fiat_msat > 0 and not t.disbursed), 0),
      coalesce(sum(t.fiat_msat) filter (where t.fiat_msat > 0 and not t.disbursed), 0),
      count(*) filter (where t.fiat_msat > 0 and t.disbursed),
      coalesce(sum(t.fiat_income_minor) filter (where t.fiat_msat > 0 and t.disbursed), 0),
      coalesce(sum(t.fiat_msat) filter (where t.fiat_msat > 0 and t.disbursed), 0),
      coalesce(sum(t.tx_fee_msat * case when t.currency = 'USD' then t.rate_minor_per_btc
        else coalesce((select r.rate_minor_per_btc from rates r where r.currency = 'USD'), 0) end / 10000000), 0)
    from transactions t
    group by 1, 2
  `.execute(db);
}
