import { createJsonGetter, fiatCodesOf, type HttpRateSourceOptions, isRecord, rateFrom } from './http.ts';
import { type Rate, type RateSource, RateSourceError } from './types.ts';

const NAME = 'coinbase';

/**
 * Coinbase's exchange rates of BTC (reference/protocols.md §8): one request answers every
 * currency, `{"data":{"currency":"BTC","rates":{"USD":"…",…}}}` with prices as strings.
 */
export function createCoinbaseRateSource(options: HttpRateSourceOptions = {}): RateSource {
  const getJson = createJsonGetter(NAME, 'https://api.coinbase.com', options);
  return {
    name: NAME,
    async fetchRates(currencies: readonly string[]): Promise<Rate[]> {
      const wanted = fiatCodesOf(currencies);
      if (wanted.length === 0) return [];
      const document = await getJson('/v2/exchange-rates?currency=BTC');
      const data = isRecord(document) ? document.data : undefined;
      const rates = isRecord(data) ? data.rates : undefined;
      if (!isRecord(data) || data.currency !== 'BTC' || !isRecord(rates)) {
        throw new RateSourceError(`${NAME}: the answer has no BTC rates`);
      }
      return wanted.flatMap((code) => rateFrom(NAME, code, rates[code]) ?? []);
    },
  };
}
