import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // What a sale's refunds gave back, kept on its ledger row by the ledger (modules/ledger/
  // refund-movements.ts) in the transaction that records each refund, so every screen and file
  // that reads a sale reads what it netted without summing refunds. `refunded_minor` is in the
  // sale's currency as the customer was charged; the three shares are the refunds' parts taken
  // from the sale's fiat, on-chain and Lightning shares (domain/refund-shares.ts), and
  // `refunded_fiat_minor` the fiat part at the sale's rate.
  await db.schema
    .alterTable('transactions')
    .addColumn('refunded_msat', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('refunded_minor', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('refunded_fiat_msat', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('refunded_onchain_msat', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('refunded_lightning_msat', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('refunded_fiat_minor', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('refunds')
    .addColumn('fiat_msat', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('onchain_msat', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('lightning_msat', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('fiat_share_minor', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('transaction_daily')
    .addColumn('refunded_msat', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('refunded_minor', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  // Refunds made before were taken whole from Lightning payouts: that is the share they took.
  await sql`update refunds set lightning_msat = amount_msat`.execute(db);
  await sql`
    update transactions t set refunded_msat = r.msat, refunded_minor = r.minor, refunded_lightning_msat = r.msat
    from (select transaction_id, sum(amount_msat) as msat, sum(fiat_minor) as minor from refunds group by 1) r
    where t.id = r.transaction_id
  `.execute(db);
  await sql`
    update transaction_daily d set refunded_msat = s.msat, refunded_minor = s.minor
    from (
      select t.organization_id, t.account_id, (t.settled_at at time zone o.time_zone)::date as day, t.currency,
        sum(t.refunded_msat) as msat, sum(t.refunded_minor) as minor
      from transactions t join organizations o on o.id = t.organization_id
      where t.refunded_msat > 0
      group by 1, 2, 3, 4
    ) s
    where d.organization_id = s.organization_id and d.account_id = s.account_id and d.day = s.day
      and d.currency = s.currency
  `.execute(db);
}
