import type { OrganizationTransaction, TerminalSale, Transaction, UnpaidTransaction } from '@rayo/shared';
import { civilDateAt, formatMinor, satsPerUnit, startOfDay } from '@rayo/shared';
import type { Db, ReadDb } from '../../db/database.ts';
import type { LedgerRow } from '../../db/ledger-sql.ts';
import {
  countOrganizationTransactions,
  listLatestTerminalSales,
  listOrganizationTransactionsPage,
  listUnpaidTransactions,
} from './transactions.repo.ts';

function msat(value: string): number {
  return Number(BigInt(value));
}

/** SPEC §3 "Transaction", exactly as stored at settlement. */
export function toTransaction(row: LedgerRow): Transaction {
  const money = (minor: string) => formatMinor(BigInt(minor), row.currency);
  return {
    id: row.id,
    createdAt: row.created_at.toISOString(),
    settledAt: row.settled_at.toISOString(),
    accountId: row.account_id,
    transactionId: row.payment_hash,
    bptId: row.bpt_id,
    currencyPair: `BTC/${row.currency}`,
    currency: row.currency,
    totalMsatCharged: msat(row.total_msat),
    billAmount: money(row.bill_minor),
    tip: money(row.tip_minor),
    tax: money(row.tax_minor),
    msatIncome: msat(row.income_msat),
    fiatIncome: money(row.fiat_income_minor),
    rate: satsPerUnit(BigInt(row.rate_minor_per_btc), row.currency),
    txFeeMsat: msat(row.tx_fee_msat),
    conversionFeeMsat: msat(row.conversion_fee_msat),
    fiatPercentage: row.fiat_bps / 100,
    disbursed: row.disbursed,
    source: row.source,
    sourceName: row.source_name,
    description: row.description,
    paidVia: row.payment_hash.startsWith('onchain:') ? 'onchain' : 'lightning',
    refundedMsat: msat(row.refunded_msat),
    refundedAmount: money(row.refunded_minor),
  };
}

/** The organization's sales whose fiat part is not paid, oldest first, with that part in minor units. */
export async function listUnpaidSalesOfOrganization(
  db: Db,
  organizationId: string,
  limit: number,
): Promise<UnpaidTransaction[]> {
  const rows = await listUnpaidTransactions(db, organizationId, limit);
  return rows.map((row) => ({ ...toTransaction(row), fiatIncomeMinor: row.fiat_income_minor }));
}

/** A page of the organization's whole ledger, oldest first, and how many sales it has in all. */
export async function listOrganizationLedgerPage(
  readDb: ReadDb,
  organizationId: string,
  limit: number,
  offset: number,
): Promise<{ transactions: OrganizationTransaction[]; total: number }> {
  const [rows, total] = await Promise.all([
    listOrganizationTransactionsPage(readDb, organizationId, limit, offset),
    countOrganizationTransactions(readDb, organizationId),
  ]);
  return { transactions: rows.map((row) => ({ ...toTransaction(row), accountName: row.account_name })), total };
}

/** A terminal's latest sales, newest first, for the signed-in screen of its BPT. */
export async function listLatestTransactionsOfBpt(db: Db, bptId: string, limit: number): Promise<TerminalSale[]> {
  return (await listLatestTerminalSales(db, bptId, limit)).map(toTransaction);
}

/**
 * What the shared cashier link (`/bpts/:bptToken`) shows: the terminal's own sales of the
 * current day in the organization's time zone. Anyone holding the link sees them, so it shows
 * neither the organization's other sales nor the terminal's older ones.
 */
export async function listTodaysTerminalSales(
  db: Db,
  bpt: { id: string; timeZone: string },
  limit: number,
  now: Date,
): Promise<TerminalSale[]> {
  const since = new Date(startOfDay(civilDateAt(now.getTime(), bpt.timeZone), bpt.timeZone) * 1000);
  return (await listLatestTerminalSales(db, bpt.id, limit, since)).map(toTransaction);
}
