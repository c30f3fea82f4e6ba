import { currenciesOfCountry, SATS } from '@rayo/shared';

export type CountryCurrency = { code: string; isFiat: boolean };

/** The fiat currencies of the country, the organization's own first when it is one of them. */
export function fiatCurrenciesOf(countryCode: string | null, organizationCurrency: string): string[] {
  const listed = countryCode === null ? undefined : currenciesOfCountry(countryCode);
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
