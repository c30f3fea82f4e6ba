import { SATS } from '@rayo/shared';

/**
 * Money on the terminal is integer minor units in BigInt: cents for most fiat currencies,
 * whole units for SAT and zero-decimal currencies such as JPY. Decimal strings cross the API;
 * no figure ever passes through a float.
 */

/** The number of decimals of a currency: its ISO 4217 exponent, 0 for SAT. */
export function currencyExponent(currency: string): number {
  if (currency === SATS) return 0;
  try {
    return new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
  } catch {
    // A code Intl does not know is still a three-letter fiat code; most of those use cents.
    return 2;
  }
}

const DECIMAL = /^(\d*)(?:\.(\d*))?$/;

/** A decimal string ("12.5", "12.", "", "0.05") as minor units; extra decimals are cut, not rounded. */
export function toMinor(decimal: string, exponent: number): bigint {
  const match = DECIMAL.exec(decimal.trim());
  if (!match) throw new RangeError(`Not a decimal amount: ${decimal}`);
  const whole = match[1] || '0';
  const fraction = (match[2] ?? '').slice(0, exponent).padEnd(exponent, '0');
  return BigInt(whole + fraction);
}

/** Minor units as the decimal string the API takes: 1250n with exponent 2 is "12.50". */
export function fromMinor(minor: bigint, exponent: number): string {
  if (minor < 0n) return `-${fromMinor(-minor, exponent)}`;
  if (exponent === 0) return minor.toString();
  const digits = minor.toString().padStart(exponent + 1, '0');
  return `${digits.slice(0, -exponent)}.${digits.slice(-exponent)}`;
}

/** numerator / denominator for non-negative integers, halves rounded up. */
export function roundHalfUp(numerator: bigint, denominator: bigint): bigint {
  return (2n * numerator + denominator) / (2n * denominator);
}

/** A percentage with up to two decimals (7.25) in basis points (725). */
export function percentToBasisPoints(percent: number): bigint {
  // toFixed gives plain digits (never exponent notation) for 0–100, so the string parse is exact.
  return toMinor(percent.toFixed(2), 2);
}

/** What the customer is charged on top of the bill: a preset percentage of it, or a typed amount. */
export type TipChoice = { kind: 'percent'; percent: number } | { kind: 'amount'; amount: string };

export const TIP_PRESETS = [0, 10, 15, 20] as const;

export type SaleFigures = { bill: bigint; tip: bigint; tax: bigint; total: bigint; sats: bigint };

/**
 * The lines a terminal shows, in minor units of the BPT's currency. Tax is a share of the
 * bill only (DESIGN §4), and `sats` is the total at `rate` (satoshis per whole unit of the
 * currency, a decimal string), rounded half up.
 */
export function saleFigures(input: {
  bill: string;
  tip: TipChoice | null;
  taxPercentage: number;
  currency: string;
  rate: string;
}): SaleFigures {
  const exponent = currencyExponent(input.currency);
  const bill = toMinor(input.bill, exponent);
  let tip = 0n;
  if (input.tip?.kind === 'percent') tip = roundHalfUp(bill * BigInt(input.tip.percent) * 100n, 10_000n);
  if (input.tip?.kind === 'amount') tip = toMinor(input.tip.amount, exponent);
  const tax = roundHalfUp(bill * percentToBasisPoints(input.taxPercentage), 10_000n);
  const total = bill + tip + tax;
  return { bill, tip, tax, total, sats: satsFor(total, exponent, input.rate) };
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
export function sumDecimals(values: string[], exponent: number): bigint {
  return values.reduce((sum, value) => sum + toMinor(value, exponent), 0n);
}

/** A whole number of satoshis for people: "12,345 sats" in English. */
export function formatSats(sats: bigint, locale: string): string {
  return `${new Intl.NumberFormat(locale).format(sats)} sats`;
}

/** An amount in a currency for people, always with the currency's decimals: "GTQ 12.50", "Q12.50". */
export function formatMoney(minor: bigint, currency: string, locale: string): string {
  if (currency === SATS) return formatSats(minor, locale);
  const exponent = currencyExponent(currency);
  return moneyFormat(currency, locale, exponent).format(fromMinor(minor, exponent) as Intl.StringNumericLiteral);
}

function moneyFormat(currency: string, locale: string, fractionDigits: number): Intl.NumberFormat {
  return new Intl.NumberFormat(locale, {
    style: 'currency',
    currency,
    minimumFractionDigits: fractionDigits,
    maximumFractionDigits: fractionDigits,
  });
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
