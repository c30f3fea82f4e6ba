import { currencyExponent, satsPerUnit, shiftDecimal } from '@rayo/shared';

/** SPEC §3 "Transaction" as the CSV's header row, in the order of its columns. */
export const TRANSACTIONS_CSV_HEADER = [
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
] as const;

/**
 * The ledger columns a CSV row is made from, in the order `formatLedgerCsvLine` reads them.
 * PostgreSQL writes them as plain text (CSV format, session time zone UTC): none of them can
 * hold a comma, a quote or a line break, so a line splits on commas.
 */
export const LEDGER_CSV_COLUMNS = [
  'created_at',
  'settled_at',
  'account_id',
  'payment_hash',
  'bpt_id',
  'currency',
  'total_msat',
  'bill_minor',
  'tip_minor',
  'tax_minor',
  'income_msat',
  'fiat_income_minor',
  'rate_minor_per_btc',
  'tx_fee_msat',
  'conversion_fee_msat',
  'fiat_bps',
  'disbursed',
] as const;

const CSV_LINE_END = '\r\n';

/** One RFC 4180 field: quoted, with quotes doubled, when it holds a comma, a quote or a line break. */
export function csvField(text: string): string {
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export function csvLine(fields: readonly string[]): string {
  return fields.map(csvField).join(',') + CSV_LINE_END;
}

const UTC_TIMESTAMP = /^(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2})(?:\.(\d{1,6}))?\+00$/;

/**
 * PostgreSQL's ISO text of a timestamptz in UTC ("2025-03-15 18:00:00.5+00") as the API writes
 * instants ("2025-03-15T18:00:00.500Z"): milliseconds, the microseconds cut off.
 */
export function isoInstantOf(utcTimestamp: string): string {
  const match = UTC_TIMESTAMP.exec(utcTimestamp);
  if (!match) throw new Error(`Not a UTC timestamp: ${utcTimestamp}`);
  const [, date, time, fraction = ''] = match;
  return `${date}T${time}.${fraction.padEnd(3, '0').slice(0, 3)}Z`;
}

/**
 * Formats ledger lines (LEDGER_CSV_COLUMNS as PostgreSQL writes them) as CSV lines of
 * TRANSACTIONS_CSV_HEADER. Rates repeat across many sales, so each one is worked out once.
 */
export function createLedgerCsvFormatter(accountNames: ReadonlyMap<string, string>): (ledgerLine: string) => string {
  const names = new Map([...accountNames].map(([id, name]) => [id, csvField(name)]));
  const rates = new Map<string, string>();
  return (ledgerLine) => {
    const [
      createdAt = '',
      settledAt = '',
      accountId = '',
      paymentHash,
      bptId,
      currency = '',
      totalMsat = '',
      billMinor = '',
      tipMinor = '',
      taxMinor = '',
      incomeMsat,
      fiatIncomeMinor = '',
      rateMinorPerBtc = '',
      txFeeMsat,
      conversionFeeMsat,
      fiatBps = '',
      disbursed,
    ] = ledgerLine.split(',');
    const exponent = currencyExponent(currency);
    const rateKey = `${rateMinorPerBtc} ${currency}`;
    let rate = rates.get(rateKey);
    if (rate === undefined) {
      rate = satsPerUnit(BigInt(rateMinorPerBtc), currency);
      rates.set(rateKey, rate);
    }
    return `${isoInstantOf(createdAt)},${isoInstantOf(settledAt)},${accountId},${names.get(accountId) ?? ''},${paymentHash},${bptId},BTC/${currency},${totalMsat},${shiftDecimal(totalMsat, 3)},${shiftDecimal(billMinor, exponent)},${shiftDecimal(tipMinor, exponent)},${shiftDecimal(taxMinor, exponent)},${incomeMsat},${shiftDecimal(fiatIncomeMinor, exponent)},${rate},${txFeeMsat},${conversionFeeMsat},${shiftDecimal(fiatBps, 2)},${disbursed === 't' ? 'true' : 'false'},${currency}${CSV_LINE_END}`;
  };
}
