import { type Selectable, sql } from 'kysely';
import type { ReadDb } from './database.ts';
import type { TransactionsTable } from './schema.ts';

// Relations derived from the ledger, shared as SQL text by the repositories of the ledger (its
// rollups), the sales listings and the dashboard, so that each is written once.

/** A ledger row with where the sale came from and what it says of itself (`selectLedger`). */
export type LedgerRow = Selectable<TransactionsTable> & { source_name: string; description: string };

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
