import { createJsonGetter, fiatCodesOf, type HttpRateSourceOptions, isRecord, rateFrom } from './http.ts';
import { type Rate, type RateSource, RateSourceError } from './types.ts';

const NAME = 'kraken';
const UNKNOWN_PAIR = 'EQuery:Unknown asset pair';

/**
 * Kraken's ticker (reference/protocols.md §8), asked once per currency: a list of pairs fails as
 * a whole when one of them is unknown. Kraken names bitcoin XBT and keys the result by its own
 * pair name (`XXBTZUSD`), so the one key there is read; `c[0]` is the last trade price.
 */
export function createKrakenRateSource(options: HttpRateSourceOptions = {}): RateSource {
  const getJson = createJsonGetter(NAME, 'https://api.kraken.com', options);
  // Kraken lists a handful of bitcoin pairs; remembering the others spares its public rate limit
  // one pointless request per currency on every refresh.
  const unlisted = new Set<string>();

  async function fetchRate(code: string): Promise<Rate | undefined> {
    const document = await getJson(`/0/public/Ticker?pair=XBT${code}`);
    if (!isRecord(document) || !Array.isArray(document.error)) {
      throw new RateSourceError(`${NAME}: the XBT${code} answer is not a ticker`);
    }
    if (document.error.length > 0) {
      if (document.error.every((message) => message === UNKNOWN_PAIR)) {
        unlisted.add(code);
        return undefined;
      }
      throw new RateSourceError(`${NAME}: XBT${code}: ${document.error.join('; ')}`);
    }
    const result = isRecord(document.result) ? document.result : {};
    const [pair] = Object.values(result);
    const last = isRecord(pair) && Array.isArray(pair.c) ? pair.c[0] : undefined;
    if (last === undefined) throw new RateSourceError(`${NAME}: the XBT${code} ticker has no last trade price`);
    return rateFrom(NAME, code, last);
  }

  return {
    name: NAME,
    async fetchRates(currencies: readonly string[]): Promise<Rate[]> {
      const rates: Rate[] = [];
      // One at a time: Kraken throttles bursts of public calls from one address.
      for (const code of fiatCodesOf(currencies).filter((code) => !unlisted.has(code))) {
        const rate = await fetchRate(code);
        if (rate) rates.push(rate);
      }
      return rates;
    },
  };
}
