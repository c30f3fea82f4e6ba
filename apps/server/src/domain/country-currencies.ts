import { SATS } from '@rayo/shared';

/**
 * The currencies in legal use in a country (ISO 4217's country table), for the countries Rayo's
 * merchants are in; a country missing here has the organization's own currency. Bitcoin is
 * listed apart, as the one non-fiat currency.
 */
const CURRENCIES_BY_COUNTRY: Readonly<Record<string, readonly string[]>> = {
  AR: ['ARS'],
  BO: ['BOB'],
  BR: ['BRL'],
  BZ: ['BZD'],
  CA: ['CAD'],
  CL: ['CLP'],
  CO: ['COP'],
  CR: ['CRC'],
  CU: ['CUP'],
  DO: ['DOP'],
  EC: ['USD'],
  ES: ['EUR'],
  GB: ['GBP'],
  GT: ['GTQ', 'USD'],
  HN: ['HNL'],
  MX: ['MXN'],
  NI: ['NIO'],
  PA: ['PAB', 'USD'],
  PE: ['PEN'],
  PR: ['USD'],
  PY: ['PYG'],
  SV: ['USD'],
  US: ['USD'],
  UY: ['UYU'],
  VE: ['VES'],
};

const EURO_COUNTRIES = [
  'AT',
  'BE',
  'CY',
  'DE',
  'EE',
  'FI',
  'FR',
  'GR',
  'HR',
  'IE',
  'IT',
  'LT',
  'LU',
  'LV',
  'MT',
  'NL',
  'PT',
  'SI',
  'SK',
];

export type CountryCurrency = { code: string; isFiat: boolean };

/** The fiat currencies of the country, the organization's own first when it is one of them. */
export function fiatCurrenciesOf(countryCode: string | null, organizationCurrency: string): string[] {
  const listed =
    countryCode === null
      ? undefined
      : (CURRENCIES_BY_COUNTRY[countryCode] ?? (EURO_COUNTRIES.includes(countryCode) ? ['EUR'] : undefined));
  const fiat = listed ?? [];
  const own = organizationCurrency === SATS ? [] : [organizationCurrency];
  const currencies = [...new Set([...own.filter((code) => listed === undefined || fiat.includes(code)), ...fiat])];
  // An organization that prices in sats, in a country not listed, can still be paid in dollars.
  return currencies.length > 0 ? currencies : ['USD'];
}

/** SPEC §7 GET /settings/country-currencies: the country's fiat currencies, then bitcoin. */
export function countryCurrenciesOf(countryCode: string | null, organizationCurrency: string): CountryCurrency[] {
  return [
    ...fiatCurrenciesOf(countryCode, organizationCurrency).map((code) => ({ code, isFiat: true })),
    { code: 'BTC', isFiat: false },
  ];
}
