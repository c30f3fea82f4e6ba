import type { Language } from './constants.ts';
import { currencyExponent, formatMinor, isKnownCurrency, SATS } from './money.ts';

/**
 * Money for people, per language. Amounts reach Intl as exact decimal strings
 * (`Intl.StringNumericLiteral`), never as floats, so what is shown is what is stored.
 */

/**
 * Building an Intl.NumberFormat costs far more than formatting with one, and a screen formats
 * many figures each render (the shareable terminal spent more main-thread time building them
 * than on anything else of its own, docs/benchmarks.md), so each is built once per locale and
 * options. There are a few locales and currencies, so the map stays small.
 */
const numberFormats = new Map<string, Intl.NumberFormat>();

export function numberFormat(locale: string, options: Intl.NumberFormatOptions = {}): Intl.NumberFormat {
  const key = `${locale} ${JSON.stringify(options)}`;
  let format = numberFormats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(locale, options);
    numberFormats.set(key, format);
  }
  return format;
}

/** Millisatoshis as whole satoshis, rounded down like every sats figure Rayo shows or exports. */
export function msatToWholeSats(msat: bigint | number): bigint {
  const value = BigInt(msat);
  const quotient = value / 1000n;
  return value < 0n && value % 1000n !== 0n ? quotient - 1n : quotient;
}

/** A whole number of satoshis for people: "12,345 sats" in English. */
export function formatSats(sats: bigint, locale: string): string {
  return `${numberFormat(locale).format(sats)} sats`;
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
  if (currency === SATS) return `${numberFormat(locale, { maximumFractionDigits: 3 }).format(text)} sats`;
  // Not yet known (the organization still loading) or not ISO: the plain number and the code.
  if (!isKnownCurrency(currency)) return `${numberFormat(locale).format(text)} ${currency}`.trim();
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
  return numberFormat(locale, {
    style: 'currency',
    currency,
    currencyDisplay: 'code',
    minimumFractionDigits: fractionDigits,
    maximumFractionDigits: fractionDigits,
  });
}

/**
 * The locale numbers, money and dates are written in: Spanish as it is written in the
 * organization's country (es-GT and es-MX write 2,321.94; es-ES writes 2321,94), not Spain's
 * by default. English keeps its own (en, which writes 2,321.94). Without a country (back
 * office, a visitor), Spanish as Latin America writes it (es-419: "MXN 41,615.38"), as the
 * organizations it serves do, rather than Spain's "41.615,38 MXN" beside them.
 */
export function formatLocale(language: Language, countryCode: string | null | undefined): string {
  if (language === 'en') return language;
  if (!countryCode || !/^[A-Z]{2}$/.test(countryCode)) return LATIN_AMERICAN_SPANISH;
  return `${language}-${countryCode}`;
}

const LATIN_AMERICAN_SPANISH = 'es-419';

/**
 * One date style per language: every screen writes a day the same way ("Nov 27, 2026",
 * "27 nov 2026"), with or without the time of day; none writes the short numeric form (11/27/26),
 * which reads differently in each country.
 */
export type DateTimeStyle = 'dateTime' | 'dateTimeSeconds' | 'date';

const styles: Record<DateTimeStyle, Intl.DateTimeFormatOptions> = {
  dateTime: { dateStyle: 'medium', timeStyle: 'short' },
  dateTimeSeconds: { dateStyle: 'medium', timeStyle: 'medium' },
  date: { dateStyle: 'medium' },
};

/**
 * A formatter of instants (ISO text, epoch ms or a Date) in a zone. With `showZone`, a time
 * carries the zone's name ("10:30 UTC"), for screens whose zone is not the reader's organization's.
 */
export function dateTimeFormatter(
  locale: string,
  timeZone: string,
  style: DateTimeStyle = 'dateTime',
  showZone = false,
): (value: string | number | Date) => string {
  const options = styles[style];
  const withZone = showZone && style !== 'date';
  // dateStyle/timeStyle cannot be combined with timeZoneName, so the zone is appended.
  const format = new Intl.DateTimeFormat(locale, { ...options, timeZone });
  const zone = withZone
    ? new Intl.DateTimeFormat(locale, { timeZone, timeZoneName: 'short' })
        .formatToParts(0)
        .find((part) => part.type === 'timeZoneName')?.value
    : undefined;
  return (value) => {
    const text = format.format(typeof value === 'string' ? new Date(value) : value);
    return zone ? `${text} ${zone}` : text;
  };
}
