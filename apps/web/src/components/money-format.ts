import { currencyExponent, formatMinor, isKnownCurrency, msatToWholeSats, SATS } from '@rayo/shared';

/**
 * Money for people, per language. Amounts reach Intl as exact decimal strings
 * (`Intl.StringNumericLiteral`), never as floats, so what is shown is what is stored.
 */

/** A whole number of satoshis for people: "12,345 sats" in English. */
export function formatSats(sats: bigint, locale: string): string {
  return `${new Intl.NumberFormat(locale).format(sats)} sats`;
}

/** Millisatoshis as whole satoshis, rounded down as every sats figure is: 2,089,500 msat is "2,089 sats". */
export function formatMsatAsSats(msat: number, locale: string): string {
  return formatSats(msatToWholeSats(msat), locale);
}

/** An amount in a currency for people, always with the currency's decimals: "GTQ 12.50", "USD 0.30". */
export function formatMoney(minor: bigint, currency: string, locale: string): string {
  if (currency === SATS) return formatSats(minor, locale);
  const exponent = currencyExponent(currency);
  return moneyFormat(currency, locale, exponent).format(formatMinor(minor, currency) as Intl.StringNumericLiteral);
}

/**
 * A decimal string of a currency ("12.5", "0.125") for people, with at least the currency's
 * decimals and any further ones the figure has, so nothing is rounded.
 */
export function formatDecimalMoney(decimal: string, currency: string, locale: string): string {
  const text = decimal.trim() as Intl.StringNumericLiteral;
  if (currency === SATS) return `${new Intl.NumberFormat(locale, { maximumFractionDigits: 3 }).format(text)} sats`;
  // Not yet known (the organization still loading) or not ISO: the plain number and the code.
  if (!isKnownCurrency(currency)) return `${new Intl.NumberFormat(locale).format(text)} ${currency}`.trim();
  const exponent = currencyExponent(currency);
  const decimals = Math.max(exponent, decimal.split('.')[1]?.length ?? 0);
  return moneyFormat(currency, locale, decimals).format(text);
}

/**
 * Every amount names its currency by ISO code ("GTQ 9,114.24", "MXN 41,615.38"): CLDR gives some
 * currencies a symbol and not others (English writes "MX$" and "$" but "GTQ"), so symbols would
 * mix two styles in one column, and "$" alone does not say which dollar or peso.
 */
export function moneyFormat(currency: string, locale: string, fractionDigits: number): Intl.NumberFormat {
  return new Intl.NumberFormat(locale, {
    style: 'currency',
    currency,
    currencyDisplay: 'code',
    minimumFractionDigits: fractionDigits,
    maximumFractionDigits: fractionDigits,
  });
}
