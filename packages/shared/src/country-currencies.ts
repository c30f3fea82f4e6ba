/**
 * The currencies in legal use in a country (ISO 4217's country table), for the countries Rayo's
 * merchants are in; a country missing here has the organization's own currency. Bitcoin is
 * listed apart, as the one non-fiat currency. Server (the currencies Settings offers) and web (the
 * currency onboarding suggests) both read it.
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

/** The currencies in legal use in the country, its main one first; undefined for a country not listed. */
export function currenciesOfCountry(countryCode: string): readonly string[] | undefined {
  return CURRENCIES_BY_COUNTRY[countryCode] ?? (EURO_COUNTRIES.includes(countryCode) ? ['EUR'] : undefined);
}
