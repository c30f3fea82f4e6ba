import { type Insertable, sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import { toDisburseColumns } from '../../db/ledger-sql.ts';
import type { TransactionsTable } from '../../db/schema.ts';

/**
 * The ledger's writes: a settled sale's row and the two rollups kept from it, `transaction_daily`
 * (the dashboard's days) and `disbursement_totals` (back office's "to disburse"). Each is written
 * inside the settlement's database transaction (settlement.service.ts), and each has a one-statement
 * rebuild that gives the same figures (the scale generator and the tests use them).
 */

export type NewTransaction = Insertable<TransactionsTable>;

export async function insertTransaction(db: Db, transaction: NewTransaction): Promise<{ id: string }> {
  return db.insertInto('transactions').values(transaction).returning('id').executeTakeFirstOrThrow();
}

/**
 * Adds one recorded sale to its local day in `transaction_daily`. Called inside the settlement's
 * database transaction, so the rollup gains the sale exactly when the ledger does. Whatever
 * later changes a sale's amounts-to-disburse (marking it paid, a sent payout) or the
 * organization's time zone must adjust or rebuild these rows in the same transaction, or the
 * dashboard drifts.
 */
export async function addTransactionToDailyRollup(db: Db, transactionId: string): Promise<void> {
  await sql`
    insert into transaction_daily as d (organization_id, account_id, day, currency, count, total_msat,
      bitcoin_to_disburse_msat, total_minor, tip_minor, fiat_to_disburse_minor)
    select organization_id, account_id, day, currency, 1, total_msat, bitcoin_to_disburse_msat, total_minor,
      tip_minor, fiat_to_disburse_minor
    from (
      select t.organization_id, t.account_id, (t.settled_at at time zone o.time_zone)::date as day, t.currency,
        t.total_msat, t.total_minor, t.tip_minor, ${sql.raw(toDisburseColumns('t'))}
      from transactions t
      join organizations o on o.id = t.organization_id
      where t.id = ${transactionId}
    ) sale
    on conflict (organization_id, day, account_id, currency) do update set
      count = d.count + excluded.count,
      total_msat = d.total_msat + excluded.total_msat,
      bitcoin_to_disburse_msat = d.bitcoin_to_disburse_msat + excluded.bitcoin_to_disburse_msat,
      total_minor = d.total_minor + excluded.total_minor,
      tip_minor = d.tip_minor + excluded.tip_minor,
      fiat_to_disburse_minor = d.fiat_to_disburse_minor + excluded.fiat_to_disburse_minor
  `.execute(db);
}

/**
 * `transaction_daily` rebuilt from the ledger in one statement, with the same day and figures as
 * addTransactionToDailyRollup adds one sale at a time (the scale generator runs it after loading;
 * tests compare the kept rollup with it).
 */
export const DAILY_ROLLUP_REBUILD_SQL = `
  insert into transaction_daily (organization_id, account_id, day, currency, count, total_msat,
    bitcoin_to_disburse_msat, total_minor, tip_minor, fiat_to_disburse_minor, refunded_msat, refunded_minor)
  select organization_id, account_id, day, currency, count(*), sum(total_msat), sum(bitcoin_to_disburse_msat),
    sum(total_minor), sum(tip_minor), sum(fiat_to_disburse_minor), sum(refunded_msat), sum(refunded_minor)
  from (
    select t.organization_id, t.account_id, (t.settled_at at time zone o.time_zone)::date as day, t.currency,
      t.total_msat, t.total_minor, t.tip_minor, t.refunded_msat, t.refunded_minor, ${toDisburseColumns('t')}
    from transactions t
    join organizations o on o.id = t.organization_id
  ) sale
  group by 1, 2, 3, 4`;

/** A sale's USD cents per bitcoin: its own rate when it is in dollars, else the cached USD rate. */
const USD_RATE = sql`case when t.currency = 'USD' then t.rate_minor_per_btc
  else coalesce((select r.rate_minor_per_btc from rates r where r.currency = 'USD'), 0) end`;

/**
 * Adds one recorded sale to `disbursement_totals` (migration 0022), inside the settlement's
 * database transaction like addTransactionToDailyRollup. The fee in USD is fixed here, at the
 * rate of the day: microdollars = fee msat × cents per BTC ÷ 10^7 (10^11 msat a bitcoin,
 * 10^4 microdollars a cent), rounded down.
 */
export async function addTransactionToDisbursementTotals(db: Db, transactionId: string): Promise<void> {
  await sql`
    insert into disbursement_totals as d (organization_id, currency, pending_count, pending_fiat_minor, pending_msat,
      paid_count, paid_fiat_minor, paid_msat, fee_usd_micros)
    select t.organization_id, t.currency,
      case when t.fiat_msat > 0 and not t.disbursed then 1 else 0 end,
      case when t.fiat_msat > 0 and not t.disbursed then t.fiat_income_minor else 0 end,
      case when t.fiat_msat > 0 and not t.disbursed then t.fiat_msat else 0 end,
      case when t.fiat_msat > 0 and t.disbursed then 1 else 0 end,
      case when t.fiat_msat > 0 and t.disbursed then t.fiat_income_minor else 0 end,
      case when t.fiat_msat > 0 and t.disbursed then t.fiat_msat else 0 end,
      t.tx_fee_msat * ${USD_RATE} / 10000000
    from transactions t
    where t.id = ${transactionId}
    on conflict (organization_id, currency) do update set
      pending_count = d.pending_count + excluded.pending_count,
      pending_fiat_minor = d.pending_fiat_minor + excluded.pending_fiat_minor,
      pending_msat = d.pending_msat + excluded.pending_msat,
      paid_count = d.paid_count + excluded.paid_count,
      paid_fiat_minor = d.paid_fiat_minor + excluded.paid_fiat_minor,
      paid_msat = d.paid_msat + excluded.paid_msat,
      fee_usd_micros = d.fee_usd_micros + excluded.fee_usd_micros
  `.execute(db);
}

/**
 * `disbursement_totals` rebuilt from the ledger in one statement, with the same figures as
 * addTransactionToDisbursementTotals and the refunds' fiat parts (addRefundToLedger, and the fiat
 * transfers that take them) give (the scale generator runs it after loading).
 */
export const DISBURSEMENT_TOTALS_REBUILD_SQL = `
  insert into disbursement_totals (organization_id, currency, pending_count, pending_fiat_minor, pending_msat,
    paid_count, paid_fiat_minor, paid_msat, fee_usd_micros)
  select t.organization_id, t.currency,
    count(*) filter (where t.fiat_msat > 0 and not t.disbursed),
    coalesce(sum(t.fiat_income_minor) filter (where t.fiat_msat > 0 and not t.disbursed), 0)
      - (select coalesce(sum(r.fiat_share_minor), 0) from refunds r
        where r.organization_id = t.organization_id and r.currency = t.currency and r.fiat_taken_at is null),
    coalesce(sum(t.fiat_msat) filter (where t.fiat_msat > 0 and not t.disbursed), 0)
      - (select coalesce(sum(r.fiat_msat), 0) from refunds r
        where r.organization_id = t.organization_id and r.currency = t.currency and r.fiat_taken_at is null),
    count(*) filter (where t.fiat_msat > 0 and t.disbursed),
    coalesce(sum(t.fiat_income_minor) filter (where t.fiat_msat > 0 and t.disbursed), 0)
      - (select coalesce(sum(r.fiat_share_minor), 0) from refunds r
        where r.organization_id = t.organization_id and r.currency = t.currency and r.fiat_taken_at is not null),
    coalesce(sum(t.fiat_msat) filter (where t.fiat_msat > 0 and t.disbursed), 0)
      - (select coalesce(sum(r.fiat_msat), 0) from refunds r
        where r.organization_id = t.organization_id and r.currency = t.currency and r.fiat_taken_at is not null),
    coalesce(sum(t.tx_fee_msat * case when t.currency = 'USD' then t.rate_minor_per_btc
      else coalesce((select r.rate_minor_per_btc from rates r where r.currency = 'USD'), 0) end / 10000000), 0)
  from transactions t
  group by 1, 2`;

/** What the ledger needs of a sale to split a refund of it, with what its refunds took so far. */
export type RefundedSale = {
  fiatBps: number;
  onchainBps: number;
  lightningBps: number;
  rateMinorPerBtc: bigint;
  currency: string;
  refundedFiatMsat: bigint;
};

/** The sale's row, locked until the transaction ends so its refunds are added one at a time. */
export async function lockRefundedSale(db: Db, transactionId: string): Promise<RefundedSale> {
  const row = await db
    .selectFrom('transactions')
    .select(['fiat_bps', 'onchain_bps', 'lightning_bps', 'rate_minor_per_btc', 'currency', 'refunded_fiat_msat'])
    .where('id', '=', transactionId)
    .forUpdate()
    .executeTakeFirstOrThrow();
  return {
    fiatBps: row.fiat_bps,
    onchainBps: row.onchain_bps,
    lightningBps: row.lightning_bps,
    rateMinorPerBtc: BigInt(row.rate_minor_per_btc),
    currency: row.currency,
    refundedFiatMsat: BigInt(row.refunded_fiat_msat),
  };
}

export type RefundMovement = {
  refundId: string;
  transactionId: string;
  amountMsat: bigint;
  fiatMinor: bigint;
  fiatMsat: bigint;
  onchainMsat: bigint;
  lightningMsat: bigint;
  fiatShareMinor: bigint;
};

/**
 * Writes one refund into the ledger: its parts on the refund, its sums on the sale's row and on
 * the sale's day in `transaction_daily` (a refund counts on the day of the sale it gives back).
 */
export async function addRefundToLedger(db: Db, movement: RefundMovement): Promise<void> {
  await db
    .updateTable('refunds')
    .set({
      fiat_msat: movement.fiatMsat,
      onchain_msat: movement.onchainMsat,
      lightning_msat: movement.lightningMsat,
      fiat_share_minor: movement.fiatShareMinor,
    })
    .where('id', '=', movement.refundId)
    .execute();
  await db
    .updateTable('transactions')
    .set({
      refunded_msat: sql`refunded_msat + ${movement.amountMsat}`,
      refunded_minor: sql`refunded_minor + ${movement.fiatMinor}`,
      refunded_fiat_msat: sql`refunded_fiat_msat + ${movement.fiatMsat}`,
      refunded_onchain_msat: sql`refunded_onchain_msat + ${movement.onchainMsat}`,
      refunded_lightning_msat: sql`refunded_lightning_msat + ${movement.lightningMsat}`,
      refunded_fiat_minor: sql`refunded_fiat_minor + ${movement.fiatShareMinor}`,
    })
    .where('id', '=', movement.transactionId)
    .execute();
  await sql`
    update transaction_daily d set refunded_msat = d.refunded_msat + ${movement.amountMsat},
      refunded_minor = d.refunded_minor + ${movement.fiatMinor}
    from transactions t join organizations o on o.id = t.organization_id
    where t.id = ${movement.transactionId} and d.organization_id = t.organization_id
      and d.account_id = t.account_id and d.day = (t.settled_at at time zone o.time_zone)::date
      and d.currency = t.currency
  `.execute(db);
  // The fiat part is owed from the organization's fiat to disburse until a fiat transfer takes it.
  await sql`
    update disbursement_totals d set pending_fiat_minor = d.pending_fiat_minor - ${movement.fiatShareMinor},
      pending_msat = d.pending_msat - ${movement.fiatMsat}
    from transactions t
    where t.id = ${movement.transactionId} and d.organization_id = t.organization_id and d.currency = t.currency
  `.execute(db);
}
