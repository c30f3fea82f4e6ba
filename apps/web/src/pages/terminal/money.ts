import { computeSale, currencyExponent, parseAmount, parsePercentToBps, percentOf, SATS } from '@rayo/shared';
import { formatSats, moneyFormat } from '../../components/money-format.ts';

/**
 * Money on the terminal is integer minor units in BigInt, computed with the same rules the
 * server charges with (`@rayo/shared`), so the figures shown are the figures invoiced. This
 * file adds only what the keypad and the screen need on top: partial keypad entries, the
 * estimate in sats, and formatting for people.
 */

/** Keypad text as typed so far ("12.", "", "0.5") in minor units of `currency`. */
export function typedToMinor(typed: string, currency: string): bigint {
  return parseAmount(typed.replace(/\.$/, '') || '0', currency);
}

/** What the customer is charged on top of the bill: a preset percentage of it, or a typed amount. */
export type TipChoice = { kind: 'percent'; percent: number } | { kind: 'amount'; amount: string };

export const TIP_PRESETS = [0, 10, 15, 20] as const;

export type SaleFigures = { bill: bigint; tip: bigint; tax: bigint; total: bigint; sats: bigint };

/**
 * The lines a terminal shows, in minor units of the BPT's currency, and `sats`: the total at
 * `rate` (satoshis per whole unit of the currency, a decimal string), rounded half up.
 */
export function saleFigures(input: {
  bill: string;
  tip: TipChoice | null;
  taxPercentage: number;
  currency: string;
  rate: string;
}): SaleFigures {
  const bill = typedToMinor(input.bill, input.currency);
  let tip = 0n;
  if (input.tip?.kind === 'percent') tip = percentOf(bill, input.tip.percent * 100);
  if (input.tip?.kind === 'amount') tip = typedToMinor(input.tip.amount, input.currency);
  const sale = computeSale({ billMinor: bill, tipMinor: tip, taxBps: parsePercentToBps(input.taxPercentage) });
  const sats = satsFor(sale.totalMinor, currencyExponent(input.currency), input.rate);
  return { bill, tip, tax: sale.taxMinor, total: sale.totalMinor, sats };
}

function roundHalfUp(numerator: bigint, denominator: bigint): bigint {
  return (2n * numerator + denominator) / (2n * denominator);
}

/** Minor units of a currency in satoshis at `rate` satoshis per whole unit, rounded half up. */
export function satsFor(minor: bigint, exponent: number, rate: string): bigint {
  const [whole = '', fraction = ''] = rate.trim().split('.');
  const rateScaled = BigInt(`${whole || '0'}${fraction}`);
  return roundHalfUp(minor * rateScaled, 10n ** BigInt(exponent + fraction.length));
}

/** Millisatoshis in whole satoshis, rounded half up. */
export function msatToSats(msat: number): bigint {
  return roundHalfUp(BigInt(msat), 1000n);
}

/** Sums decimal strings of one currency exactly, e.g. a transaction's bill, tip and tax. */
export function sumDecimals(values: string[], currency: string): bigint {
  return values.reduce((sum, value) => sum + parseAmount(value, currency), 0n);
}

/** The decimal separator of a locale, for the keypad's point key. */
export function decimalSeparator(locale: string): string {
  return new Intl.NumberFormat(locale).formatToParts(1.5).find((part) => part.type === 'decimal')?.value ?? '.';
}

/**
 * What the keypad has typed so far, shown exactly as typed (a trailing point and the
 * decimals typed so far stay visible) but in the locale's style: "12." reads "Q12." in English.
 */
export function formatTyped(typed: string, currency: string, locale: string): string {
  const [whole = '', fraction] = typed.split('.');
  const integer = (whole || '0') as Intl.StringNumericLiteral;
  if (currency === SATS) return formatSats(BigInt(integer), locale);
  const digits = fraction ?? '';
  const parts = moneyFormat(currency, locale, digits.length).formatToParts(
    (digits ? `${integer}.${digits}` : integer) as Intl.StringNumericLiteral,
  );
  if (fraction === '') {
    // A point typed with no decimals after it yet: show the separator right after the digits.
    const lastDigit = parts.findLastIndex((part) => part.type === 'integer');
    parts.splice(lastDigit + 1, 0, { type: 'decimal', value: decimalSeparator(locale) });
  }
  return parts.map((part) => part.value).join('');
}
