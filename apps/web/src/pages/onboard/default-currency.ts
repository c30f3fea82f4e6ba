import { currenciesOfCountry } from '@rayo/shared';

/**
 * The currency an organization in a country most likely prices in: the country's first currency
 * that the rate sources quote; the admin can pick another.
 */
export function defaultCurrencyOf(countryCode: string, available: readonly string[]): string | null {
  return currenciesOfCountry(countryCode)?.find((currency) => available.includes(currency)) ?? null;
}
