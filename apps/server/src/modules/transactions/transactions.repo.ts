import { type Selectable, sql } from 'kysely';
import type { Db, ReadDb } from '../../db/database.ts';
import { type LedgerRow, selectLedger } from '../../db/ledger-sql.ts';
import type { TransactionsTable } from '../../db/schema.ts';

export type TransactionRow = Selectable<TransactionsTable>;

/** The organization's sales whose fiat part is not paid, oldest first (the partial index of 0022). */
export async function listUnpaidTransactions(db: Db, organizationId: string, limit: number): Promise<LedgerRow[]> {
  return selectLedger(db)
    .where('transactions.organization_id', '=', organizationId)
    .where('transactions.disbursed', '=', false)
    .where('transactions.fiat_msat', '>', '0')
    .orderBy('transactions.settled_at')
    .orderBy('transactions.id')
    .limit(limit)
    .execute();
}

/** One page of the organization's whole ledger in a stable order, with each sale's account name, for the export. */
export async function listOrganizationTransactionsPage(
  db: ReadDb,
  organizationId: string,
  limit: number,
  offset: number,
): Promise<Array<LedgerRow & { account_name: string }>> {
  return selectLedger(db)
    .innerJoin('accounts', 'accounts.id', 'transactions.account_id')
    .select('accounts.name as account_name')
    .where('transactions.organization_id', '=', organizationId)
    .orderBy('transactions.settled_at')
    .orderBy('transactions.id')
    .limit(limit)
    .offset(offset)
    .execute();
}

/** How many sales the organization has, from the daily rollup rather than the ledger. */
export async function countOrganizationTransactions(db: ReadDb, organizationId: string): Promise<number> {
  const row = await db
    .selectFrom('transaction_daily')
    .select(sql<string>`coalesce(sum(count), 0)::text`.as('count'))
    .where('organization_id', '=', organizationId)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

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
