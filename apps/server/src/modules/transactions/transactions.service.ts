import type { Transaction } from '@rayo/shared';
import { formatMinor, satsPerUnit } from '@rayo/shared';
import type { Db } from '../../db/database.ts';
import { listLatestBptTransactions, type TransactionRow } from './transactions.repo.ts';

function msat(value: string): number {
  return Number(BigInt(value));
}

/** SPEC §3 "Transaction", exactly as stored at settlement. */
export function toTransaction(row: TransactionRow): Transaction {
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
  };
}

/** A terminal's latest sales, newest first, for its own screen. */
export async function listLatestTransactionsOfBpt(db: Db, bptId: string, limit: number): Promise<Transaction[]> {
  return (await listLatestBptTransactions(db, bptId, limit)).map(toTransaction);
}
