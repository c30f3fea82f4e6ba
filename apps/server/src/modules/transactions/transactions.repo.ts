import { type Insertable, type Selectable, sql } from 'kysely';
import type { Db, ReadDb } from '../../db/database.ts';
import type { TransactionsTable } from '../../db/schema.ts';

export type TransactionRow = Selectable<TransactionsTable>;
export type NewTransaction = Insertable<TransactionsTable>;
/** A ledger row with where the sale came from and what it says of itself (`selectLedger`). */
export type LedgerRow = TransactionRow & { source_name: string; description: string };

/**
 * The ledger as screens and files list it: every column of `transactions`, with the name of the
 * sale's source (the terminal, the payment link's description, the donation page's title, the
 * store's order id) and its description (the terminal's note, the donor's comment; a payment
 * link's description is already its name), each on one line. Every join is by key, one row per
 * sale, and PostgreSQL folds the subquery into the query around it, so conditions on
 * `transactions.` still walk the ledger's indexes. Written once as SQL text, because the CSV's
 * `COPY` (which takes no bind parameters) selects from it too.
 */
export const LEDGER_SQL = `(
  select transactions.*,
    regexp_replace(case transactions.source
      when 'terminal' then coalesce(bpts.name, '')
      when 'donation' then coalesce(donation_links.title, '')
      when 'checkout' then coalesce(checkouts.order_id, checkouts.description, '')
      else coalesce(checkouts.description, '') end, '[ \t]*[\r\n]+[ \t]*', ' ', 'g') as source_name,
    regexp_replace(case transactions.source
      when 'donation' then coalesce(donations.comment, '')
      when 'payment_link' then ''
      else invoices.description end, '[ \t]*[\r\n]+[ \t]*', ' ', 'g') as description
  from transactions
  join invoices on invoices.id = transactions.invoice_id
  left join bpts on bpts.id = transactions.bpt_id
  left join checkouts on transactions.source in ('payment_link', 'checkout') and checkouts.id = invoices.source_id
  left join donation_links on transactions.source = 'donation' and donation_links.id = invoices.source_id
  left join donations on donations.invoice_id = transactions.invoice_id
)`;

/** `LEDGER_SQL` as a table named `transactions` for Kysely queries. */
export function selectLedger(db: ReadDb) {
  return db.selectFrom(sql<LedgerRow>`${sql.raw(LEDGER_SQL)}`.as('transactions')).selectAll('transactions');
}

export async function insertTransaction(db: Db, transaction: NewTransaction): Promise<TransactionRow> {
  return db.insertInto('transactions').values(transaction).returningAll().executeTakeFirstOrThrow();
}

/**
 * What of a sale is still to pay out, over a `transactions` row aliased `t`. The bitcoin: its
 * on-chain and Lightning shares less those in sent payouts (a trigger of migration 0028 takes
 * them off `transaction_daily` when a payout is sent). The fiat: all of it until back office
 * marks the sale paid (`disbursed`), which pays the fiat share only.
 */
export function toDisburseColumns(t: string): string {
  return `${t}.onchain_msat + ${t}.lightning_msat - coalesce((select sum(pt.amount_msat) from payout_transactions pt
      join payouts p on p.id = pt.payout_id where pt.transaction_id = ${t}.id and p.state = 'sent'), 0)
      as bitcoin_to_disburse_msat,
    case when ${t}.disbursed then 0 else ${t}.fiat_income_minor end as fiat_to_disburse_minor`;
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
    bitcoin_to_disburse_msat, total_minor, tip_minor, fiat_to_disburse_minor)
  select organization_id, account_id, day, currency, count(*), sum(total_msat), sum(bitcoin_to_disburse_msat),
    sum(total_minor), sum(tip_minor), sum(fiat_to_disburse_minor)
  from (
    select t.organization_id, t.account_id, (t.settled_at at time zone o.time_zone)::date as day, t.currency,
      t.total_msat, t.total_minor, t.tip_minor, ${toDisburseColumns('t')}
    from transactions t
    join organizations o on o.id = t.organization_id
  ) sale
  group by 1, 2, 3, 4`;

/**
 * A terminal's own sales, newest first: those charged on it, not those of the payment links,
 * donations and store checkouts that virtual BPTs book on its BPT. With `since`, only those
 * settled from then on.
 */
export async function listLatestTerminalSales(
  db: Db,
  bptId: string,
  limit: number,
  since?: Date,
): Promise<LedgerRow[]> {
  let query = selectLedger(db).where('transactions.bpt_id', '=', bptId).where('transactions.source', '=', 'terminal');
  if (since) query = query.where('transactions.settled_at', '>=', since);
  return query.orderBy('transactions.settled_at', 'desc').orderBy('transactions.id', 'desc').limit(limit).execute();
}

export async function countTransactionsForPayment(db: Db, paymentHash: string): Promise<number> {
  const row = await db
    .selectFrom('transactions')
    .select((eb) => eb.fn.countAll<string>().as('count'))
    .where('payment_hash', '=', paymentHash)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** How many organizations and sales the database holds, and when the last sale settled. */
export async function summarizeLedger(
  db: Db,
): Promise<{ organizations: number; sales: number; lastSaleAt: Date | null }> {
  const row = await db
    .selectNoFrom((eb) => [
      eb
        .selectFrom('organizations')
        .select((inner) => inner.fn.countAll<string>().as('n'))
        .as('organizations'),
      eb
        .selectFrom('transactions')
        .select((inner) => inner.fn.countAll<string>().as('n'))
        .as('sales'),
      eb
        .selectFrom('transactions')
        .select((inner) => inner.fn.max('settled_at').as('at'))
        .as('last_sale_at'),
    ])
    .executeTakeFirstOrThrow();
  return {
    organizations: Number(row.organizations),
    sales: Number(row.sales),
    lastSaleAt: row.last_sale_at ? new Date(row.last_sale_at) : null,
  };
}
