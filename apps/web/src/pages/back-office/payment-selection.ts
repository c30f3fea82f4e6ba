import type { CountryReport, UnpaidTransaction } from '@rayo/shared';
import { formatMoney } from '../../components/money-format.ts';

/**
 * The checked sales' fiat income added up per currency, as people read it ("GTQ 120.00 + USD
 * 5.00"); empty with nothing checked, where the screens say "none" instead of a sum.
 */
export function selectedSum(transactions: readonly UnpaidTransaction[], locale: string): string {
  const byCurrency = new Map<string, bigint>();
  for (const transaction of transactions) {
    byCurrency.set(
      transaction.currency,
      (byCurrency.get(transaction.currency) ?? 0n) + BigInt(transaction.fiatIncomeMinor),
    );
  }
  return [...byCurrency]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([currency, minor]) => formatMoney(minor, currency, locale))
    .join(' + ');
}

/** SPEC §4: marking a country report's checked rows paid sends the ids of all their transactions. */
export function idsOfCheckedRows(
  rows: readonly CountryReport['rows'][number][],
  checked: ReadonlySet<string>,
): string[] {
  return rows
    .filter((row) => checked.has(row.organizationId))
    .flatMap((row) => row.transactions.map((transaction) => transaction.id));
}
