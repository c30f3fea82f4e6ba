import type { CountryReport, CountryReportRow, CurrencyAmount } from '@rayo/shared';
import { formatMinor, shiftDecimal } from '@rayo/shared';
import { csvField, csvLine, csvTextField } from './transactions-csv.ts';

/** SPEC §9: an organization is active when its pending plus paid transactions are above this. */
export const ACTIVE_ORGANIZATION_ABOVE = 5;

/** An organization's totals in one currency of its sales (no currency: it has none). */
export type OrganizationCurrencyTotals = {
  organizationId: string;
  organizationName: string;
  currency: string | null;
  pendingCount: bigint;
  paidCount: bigint;
  paidFiatMinor: bigint;
  paidMsat: bigint;
  feeUsdMicros: bigint;
  hasBankAccount: boolean;
};

/** Microdollars as dollars with cents, rounded down to the cent. */
export function usdOfMicros(micros: bigint): string {
  return shiftDecimal((micros / 10_000n).toString(), 2);
}

function amounts(byCurrency: Map<string, bigint>): CurrencyAmount[] {
  return [...byCurrency]
    .filter(([, minor]) => minor > 0n)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([currency, minor]) => ({ currency, amount: formatMinor(minor, currency) }));
}

function add(byCurrency: Map<string, bigint>, currency: string, minor: bigint): void {
  byCurrency.set(currency, (byCurrency.get(currency) ?? 0n) + minor);
}

/**
 * SPEC §3 country report: a row per organization (its currencies added up, paid fiat kept
 * apart per currency) and the totals. Paid sats is the sum of all paid msat divided by 1000,
 * rounded down once on the sum; the fee in USD too, from the exact sum of microdollars.
 */
export function buildCountryReport(
  totals: readonly OrganizationCurrencyTotals[],
  unpaidIds: ReadonlyMap<string, readonly string[]>,
): CountryReport {
  type Acc = {
    organizationId: string;
    organizationName: string;
    pending: bigint;
    paid: bigint;
    paidMsat: bigint;
    feeUsdMicros: bigint;
    paidFiat: Map<string, bigint>;
    hasBankAccount: boolean;
  };
  const byOrganization = new Map<string, Acc>();
  for (const line of totals) {
    let acc = byOrganization.get(line.organizationId);
    if (!acc) {
      acc = {
        organizationId: line.organizationId,
        organizationName: line.organizationName,
        pending: 0n,
        paid: 0n,
        paidMsat: 0n,
        feeUsdMicros: 0n,
        paidFiat: new Map(),
        hasBankAccount: line.hasBankAccount,
      };
      byOrganization.set(line.organizationId, acc);
    }
    acc.pending += line.pendingCount;
    acc.paid += line.paidCount;
    acc.paidMsat += line.paidMsat;
    acc.feeUsdMicros += line.feeUsdMicros;
    if (line.currency !== null) add(acc.paidFiat, line.currency, line.paidFiatMinor);
  }

  const rows: CountryReportRow[] = [];
  const paidFiat = new Map<string, bigint>();
  let pendingTransactions = 0n;
  let paidTransactions = 0n;
  let activeOrganizations = 0;
  let paidMsat = 0n;
  let feeUsdMicros = 0n;
  for (const acc of byOrganization.values()) {
    rows.push({
      organizationId: acc.organizationId,
      organizationName: acc.organizationName,
      paidFiat: amounts(acc.paidFiat),
      paidMsat: acc.paidMsat.toString(),
      paidTransactionsCount: Number(acc.paid),
      pendingTransactionsCount: Number(acc.pending),
      feeUsdEarned: usdOfMicros(acc.feeUsdMicros),
      transactions: (unpaidIds.get(acc.organizationId) ?? []).map((id) => ({ id })),
      hasBankAccount: acc.hasBankAccount,
    });
    pendingTransactions += acc.pending;
    paidTransactions += acc.paid;
    if (acc.pending + acc.paid > ACTIVE_ORGANIZATION_ABOVE) activeOrganizations += 1;
    paidMsat += acc.paidMsat;
    feeUsdMicros += acc.feeUsdMicros;
    for (const [currency, minor] of acc.paidFiat) add(paidFiat, currency, minor);
  }
  return {
    rows,
    totals: {
      pendingTransactions: Number(pendingTransactions),
      paidTransactions: Number(paidTransactions),
      organizations: rows.length,
      activeOrganizations,
      paidSats: (paidMsat / 1000n).toString(),
      paidFiat: amounts(paidFiat),
      feeUsd: usdOfMicros(feeUsdMicros),
    },
  };
}

export const COUNTRY_REPORT_CSV_HEADER = [
  'Organization id',
  'Organization name',
  'Paid fiat',
  'Paid msats',
  'Paid sats',
  'Paid transactions',
  'Pending transactions',
  'Fee USD earned',
] as const;

function fiatText(paid: readonly CurrencyAmount[]): string {
  return paid.map((amount) => `${amount.amount} ${amount.currency}`).join('; ');
}

/**
 * The report as CSV: the same rows as the JSON (the unpaid ids are left out; the pending count
 * stands for them), then a blank line and the totals, one per line, as the screen shows them.
 */
export function countryReportCsv(report: CountryReport): string {
  const lines = [csvLine(COUNTRY_REPORT_CSV_HEADER)];
  for (const row of report.rows) {
    const fields = [
      row.paidMsat,
      (BigInt(row.paidMsat) / 1000n).toString(),
      String(row.paidTransactionsCount),
      String(row.pendingTransactionsCount),
      row.feeUsdEarned,
    ];
    // The name is the one field someone typed, so it is the one made safe for spreadsheets.
    lines.push(
      `${[csvField(row.organizationId), csvTextField(row.organizationName), csvField(fiatText(row.paidFiat)), ...fields].join(',')}\r\n`,
    );
  }
  const { totals } = report;
  lines.push('\r\n');
  lines.push(csvLine(['Total', 'Value']));
  lines.push(csvLine(['Pending transactions', String(totals.pendingTransactions)]));
  lines.push(csvLine(['Paid transactions', String(totals.paidTransactions)]));
  lines.push(csvLine(['Organizations', String(totals.organizations)]));
  lines.push(csvLine(['Active organizations', String(totals.activeOrganizations)]));
  lines.push(csvLine(['Paid sats', totals.paidSats]));
  lines.push(csvLine(['Paid fiat', fiatText(totals.paidFiat)]));
  lines.push(csvLine(['Fee USD', totals.feeUsd]));
  return lines.join('');
}
