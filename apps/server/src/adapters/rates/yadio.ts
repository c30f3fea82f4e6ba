import { createJsonGetter, fiatCodesOf, type HttpRateSourceOptions, isRecord, rateFrom } from './http.ts';
import { type Rate, type RateSource, RateSourceError } from './types.ts';

const NAME = 'yadio';

/**
 * Yadio's aggregated rates (reference/protocols.md §8), which cover Latin American currencies
 * the exchanges do not: `{"BTC":{"USD":n,"GTQ":n,…},"base":"BTC","timestamp":n}` with numbers.
 */
export function createYadioRateSource(options: HttpRateSourceOptions = {}): RateSource {
  const getJson = createJsonGetter(NAME, 'https://api.yadio.io', options);
  return {
    name: NAME,
    async fetchRates(currencies: readonly string[]): Promise<Rate[]> {
      const wanted = fiatCodesOf(currencies);
      if (wanted.length === 0) return [];
      const document = await getJson('/exrates/BTC');
      const prices = isRecord(document) ? document.BTC : undefined;
      if (!isRecord(prices)) throw new RateSourceError(`${NAME}: the answer has no BTC rates`);
      return wanted.flatMap((code) => rateFrom(NAME, code, prices[code]) ?? []);
    },
  };
}
