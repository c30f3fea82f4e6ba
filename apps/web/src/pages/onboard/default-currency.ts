/**
 * The currency an organization in a country most likely prices in, among those the rate
 * sources quote; the admin can pick another.
 */
const currencyByCountry: Record<string, string> = {
  GT: 'GTQ',
  MX: 'MXN',
  AR: 'ARS',
  BR: 'BRL',
  CO: 'COP',
  US: 'USD',
  SV: 'USD',
  EC: 'USD',
  PA: 'USD',
  PR: 'USD',
};

const euro = [
  'AT',
  'BE',
  'CY',
  'DE',
  'EE',
  'ES',
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

export function defaultCurrencyOf(countryCode: string, available: readonly string[]): string | null {
  const currency = euro.includes(countryCode) ? 'EUR' : currencyByCountry[countryCode];
  return currency && available.includes(currency) ? currency : null;
}
