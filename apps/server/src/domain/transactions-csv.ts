import {
  CSV_LINE_END,
  csvTextField,
  currencyExponent,
  isoInstantInZoneFormatter,
  msatToWholeSats,
  satsPerUnit,
  shiftDecimal,
} from '@rayo/shared';

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
  'source',
  'refunded_msat',
  'refunded_minor',
  // Text someone typed, quoted by PostgreSQL where it holds a comma or a quote: last, read apart.
  'source_name',
  'description',
] as const;

/** How many LEDGER_CSV_COLUMNS come before the two typed ones, none of which holds a comma. */
const PLAIN_LEDGER_FIELDS = LEDGER_CSV_COLUMNS.indexOf('source_name');

/**
 * The two typed fields that end a ledger line, as PostgreSQL's CSV writes them: bare, or quoted
 * with quotes doubled. `LEDGER_SQL` puts each on one line, so a line is a whole row.
 */
function typedFields(rest: string): [string, string] {
  const fields: string[] = [];
  let at = 0;
  while (fields.length < 2) {
    if (rest[at] === '"') {
      let value = '';
      let from = at + 1;
      for (;;) {
        const quote = rest.indexOf('"', from);
        if (quote === -1) throw new Error(`Unterminated quoted field in a ledger line: ${rest}`);
        value += rest.slice(from, quote);
        if (rest[quote + 1] === '"') {
          value += '"';
          from = quote + 2;
        } else {
          at = quote + 2;
          break;
        }
      }
      fields.push(value);
    } else {
      const comma = rest.indexOf(',', at);
      const end = comma === -1 ? rest.length : comma;
      fields.push(rest.slice(at, end));
      at = end + 1;
    }
  }
  return [fields[0] ?? '', fields[1] ?? ''];
}

// One escaper for every CSV Rayo writes, on the server and in the browser.
export { csvField, csvLine, csvTextField } from '@rayo/shared';

/**
 * PostgreSQL's ISO text of a timestamptz in UTC ("2025-03-15 18:00:00.5+00") as the API writes
 * instants ("2025-03-15T18:00:00.500Z"): milliseconds, the microseconds cut off. It runs for
 * every row of an export, so it checks the shape by position rather than with a pattern.
 */
export function isoInstantOf(utcTimestamp: string): string {
  const length = utcTimestamp.length;
  const hasFraction = length > 22 && length <= 29 && utcTimestamp[19] === '.';
  if (
    (length !== 22 && !hasFraction) ||
    utcTimestamp[10] !== ' ' ||
    utcTimestamp[4] !== '-' ||
    utcTimestamp[13] !== ':' ||
    !utcTimestamp.endsWith('+00')
  ) {
    throw new Error(`Not a UTC timestamp: ${utcTimestamp}`);
  }
  const fraction = hasFraction ? `${utcTimestamp.slice(20, Math.min(23, length - 3))}000`.slice(0, 3) : '000';
  return `${utcTimestamp.slice(0, 10)}T${utcTimestamp.slice(11, 19)}.${fraction}Z`;
}

/**
 * Formats ledger lines (LEDGER_CSV_COLUMNS as PostgreSQL writes them) as lines of the shared
 * TRANSACTIONS_CSV_COLUMNS, exactly as the shared `transactionCsvLine` writes the same sale (its
 * test holds the two together), times on `timeZone`'s clock. It runs for every row of an export:
 * the fields are joined by one array join, which builds a flat string (a template literal builds
 * a chain of pieces that costs as much again to flatten), each rate is worked out once, since
 * many sales share it, and the zone's offset once per quarter hour.
 */
export function createLedgerCsvFormatter(
  accountNames: ReadonlyMap<string, string>,
  timeZone: string,
): (ledgerLine: string) => string {
  const names = new Map([...accountNames].map(([id, name]) => [id, csvTextField(name)]));
  const rates = new Map<string, string>();
  const zoned = isoInstantInZoneFormatter(timeZone);
  return (ledgerLine) => {
    const [
      createdAt = '',
      settledAt = '',
      accountId = '',
      paymentHash = '',
      bptId = '',
      currency = '',
      totalMsat = '',
      billMinor = '',
      tipMinor = '',
      taxMinor = '',
      incomeMsat = '',
      fiatIncomeMinor = '',
      rateMinorPerBtc = '',
      txFeeMsat = '',
      conversionFeeMsat = '',
      fiatBps = '',
      disbursed,
      source = '',
      refundedMsat = '',
      refundedMinor = '',
    ] = ledgerLine.split(',', PLAIN_LEDGER_FIELDS);
    let rest = ledgerLine;
    for (let field = 0; field < PLAIN_LEDGER_FIELDS; field += 1) rest = rest.slice(rest.indexOf(',') + 1);
    const [sourceName, description] = typedFields(rest);
    const exponent = currencyExponent(currency);
    const rateKey = `${rateMinorPerBtc} ${currency}`;
    let rate = rates.get(rateKey);
    if (rate === undefined) {
      rate = satsPerUnit(BigInt(rateMinorPerBtc), currency);
      rates.set(rateKey, rate);
    }
    return [
      zoned(Date.parse(isoInstantOf(createdAt))),
      zoned(Date.parse(isoInstantOf(settledAt))),
      accountId,
      names.get(accountId) ?? '',
      paymentHash,
      bptId,
      `BTC/${currency}`,
      totalMsat,
      msatToWholeSats(BigInt(totalMsat)).toString(),
      shiftDecimal(billMinor, exponent),
      shiftDecimal(tipMinor, exponent),
      shiftDecimal(taxMinor, exponent),
      incomeMsat,
      shiftDecimal(fiatIncomeMinor, exponent),
      rate,
      txFeeMsat,
      conversionFeeMsat,
      shiftDecimal(fiatBps, 2),
      disbursed === 't' ? 'true' : 'false',
      currency,
      source,
      csvTextField(sourceName),
      csvTextField(description),
      paymentHash.startsWith('onchain:') ? 'onchain' : 'lightning',
      refundedMsat,
      shiftDecimal(refundedMinor, exponent),
      `${BigInt(incomeMsat) - BigInt(refundedMsat)}${CSV_LINE_END}`,
    ].join(',');
  };
}
