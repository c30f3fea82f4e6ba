import { CSV_LINE_END, csvField, csvTextField } from './csv.ts';
import { shiftDecimal } from './money.ts';
import { msatToWholeSats } from './people-format.ts';
import { isoInstantInZone } from './period.ts';

/**
 * The columns of every ledger CSV Rayo writes, in order: the merchant's download from home and
 * back office's export of one organization. Both write their rows with `transactionCsvLine`'s
 * rules (the server through a faster formatter that its tests hold to this one), so the two files
 * cannot drift apart. The two dates are on the organization's clock, which their header names.
 * The last three count the sale's refunds: what they gave back, in msat and in the sale's
 * currency as the customer was charged, and what the sale netted the merchant (its msats income
 * less its refunds, below zero when a refund gave back the fees too).
 */
export const TRANSACTIONS_CSV_COLUMNS = [
  'Date created',
  'Date settled',
  'Account id',
  'Account name',
  'Transaction id',
  'BPT id',
  'Currency pair',
  'Total msats charged',
  'Total sats',
  'Bill amount',
  'Tip',
  'Tax',
  'Msats income',
  'Fiat income',
  'Rate (sats per unit)',
  'Tx fee msats',
  'Conversion fee msats',
  'Fiat percentage',
  'Disbursed',
  'Currency',
  'Source',
  'Source name',
  'Description',
  'Paid via',
  'Refunded msats',
  'Refunded',
  'Net msats income',
] as const;

/** The header row: the date columns say which zone their times are on ("Date created (America/Guatemala)"). */
export function transactionsCsvHeader(timeZone: string): string {
  return (
    TRANSACTIONS_CSV_COLUMNS.map((column) =>
      csvField(column.startsWith('Date ') ? `${column} (${timeZone})` : column),
    ).join(',') + CSV_LINE_END
  );
}

/** What a CSV row is made of: a sale as the API gives it (SPEC §3 "Transaction") and its account's name. */
export type TransactionCsvRow = {
  createdAt: string;
  settledAt: string;
  accountId: string;
  accountName: string;
  transactionId: string;
  bptId: string | null;
  currencyPair: string;
  totalMsatCharged: number | string;
  billAmount: string;
  tip: string;
  tax: string;
  msatIncome: number | string;
  fiatIncome: string;
  rate: string;
  txFeeMsat: number | string;
  conversionFeeMsat: number | string;
  fiatPercentage: number;
  disbursed: boolean;
  currency: string;
  source: string;
  sourceName: string;
  description: string;
  paidVia: string;
  refundedMsat: number | string;
  refundedAmount: string;
};

/** One sale as a line of TRANSACTIONS_CSV_COLUMNS, its times on `timeZone`'s clock. */
export function transactionCsvLine(row: TransactionCsvRow, timeZone: string): string {
  return (
    [
      isoInstantInZone(Date.parse(row.createdAt), timeZone),
      isoInstantInZone(Date.parse(row.settledAt), timeZone),
      row.accountId,
      csvTextField(row.accountName),
      row.transactionId,
      row.bptId ?? '',
      row.currencyPair,
      String(row.totalMsatCharged),
      msatToWholeSats(BigInt(row.totalMsatCharged)).toString(),
      row.billAmount,
      row.tip,
      row.tax,
      String(row.msatIncome),
      row.fiatIncome,
      row.rate,
      String(row.txFeeMsat),
      String(row.conversionFeeMsat),
      shiftDecimal(String(Math.round(row.fiatPercentage * 100)), 2),
      String(row.disbursed),
      row.currency,
      row.source,
      csvTextField(oneLine(row.sourceName)),
      csvTextField(oneLine(row.description)),
      row.paidVia,
      String(row.refundedMsat),
      row.refundedAmount,
      (BigInt(row.msatIncome) - BigInt(row.refundedMsat)).toString(),
    ].join(',') + CSV_LINE_END
  );
}

/** Typed text on one line, as the ledger's query writes it: a line break and the blanks around it become a space. */
function oneLine(text: string): string {
  return text.replace(/[ \t]*[\r\n]+[ \t]*/g, ' ');
}
