import {
  currencyExponent,
  maxTipMinor,
  numberFormat,
  parseAmount,
  quoteSale,
  SATS,
  type SaleQuote,
  saleProblem,
  type TipChoice,
  tipOf,
} from '@rayo/shared';
import { formatSats, moneyFormat } from '../../components/money-format.ts';

/** The keys of the terminal's keypad. */
export type KeypadKey = '0' | '1' | '2' | '3' | '4' | '5' | '6' | '7' | '8' | '9' | '00' | '.' | 'backspace' | 'clear';

/** The API takes at most 15 whole digits (DecimalStringSchema). */
export const MAX_WHOLE_DIGITS = 15;

function typeDigit(value: string, digit: string, exponent: number): string {
  const [whole = '', fraction] = value.split('.');
  if (fraction !== undefined) return fraction.length < exponent ? value + digit : value;
  // No leading zeros: "0" then "5" is "5", and "0" then "0" stays "0".
  if (whole === '0') return digit;
  return whole.length < MAX_WHOLE_DIGITS ? value + digit : value;
}

/**
 * The amount after one key press, as a decimal string in a currency with `exponent` decimals.
 * An empty string is nothing typed yet (shown as zero). Presses that would make the amount
 * invalid for the currency (a point in SAT, a third decimal in USD) change nothing.
 */
export function pressKey(value: string, key: KeypadKey, exponent: number): string {
  switch (key) {
    case 'clear':
      return '';
    case 'backspace':
      return value.slice(0, -1);
    case '.':
      if (exponent === 0 || value.includes('.')) return value;
      return `${value || '0'}.`;
    case '00':
      return typeDigit(typeDigit(value, '0', exponent), '0', exponent);
    default:
      return typeDigit(value, key, exponent);
  }
}

/** Keypad text as typed so far ("12.", "", "0.5") in minor units of `currency`. */
export function typedToMinor(typed: string, currency: string): bigint {
  return parseAmount(typed.replace(/\.$/, '') || '0', currency);
}

/** The decimal separator of a locale, for the keypad's point key. */
export function decimalSeparator(locale: string): string {
  return (
    numberFormat(locale)
      .formatToParts(1.5)
      .find((part) => part.type === 'decimal')?.value ?? '.'
  );
}

/**
 * What the keypad has typed so far, shown exactly as typed (a trailing point and the
 * decimals typed so far stay visible) but in the locale's style: "12." reads "GTQ 12." in English.
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

/** What the terminal prices a typed sale with: the BPT's currency, tax and the rate it was given. */
export type SaleTerms = { currency: string; taxBps: number; rateMinorPerBtc: bigint };

/**
 * The keypad's amount after a key press, unless the press would take the sale past what one
 * invoice may charge: then the amount stays and `refused` says so, before anything is asked.
 */
export function pressKeyWithinLimit(
  value: string,
  key: KeypadKey,
  tip: TipChoice | null,
  terms: SaleTerms,
): { value: string; refused: boolean } {
  const next = pressKey(value, key, currencyExponent(terms.currency));
  const billMinor = typedToMinor(next, terms.currency);
  const problem = saleProblem({ ...terms, billMinor, tip });
  // Only the sale's size refuses a key: a tip that is no amount is the tip field's to show.
  if (problem?.code === 'InvalidAmount' && billMinor > typedToMinor(value, terms.currency)) {
    return { value, refused: true };
  }
  return { value: next, refused: false };
}

export type TipProblem = 'negative' | 'notAmount' | 'tooLarge';

/** Why a typed tip cannot be charged on a bill, or null when it can. */
export function tipProblem(tip: TipChoice | null, billMinor: bigint, currency: string): TipProblem | null {
  if (tip?.kind !== 'amount') return null;
  if (tip.amount.trim().startsWith('-')) return 'negative';
  let tipMinor: bigint;
  try {
    tipMinor = tipOf(tip, billMinor, currency);
  } catch {
    return 'notAmount';
  }
  return tipMinor > maxTipMinor(billMinor) ? 'tooLarge' : null;
}

/** The figures of a typed sale as the server will invoice them; a tip that is no amount counts as none. */
export function quoteTyped(bill: string, tip: TipChoice | null, terms: SaleTerms): SaleQuote {
  const billMinor = typedToMinor(bill, terms.currency);
  let tipMinor = 0n;
  try {
    tipMinor = tipOf(tip, billMinor, terms.currency);
  } catch {
    // Shown as a problem of the tip field; the other lines still add up.
  }
  return quoteSale({ ...terms, billMinor, tipMinor });
}
