import type { Config } from '../../config.ts';
import { createCoinbaseRateSource } from './coinbase.ts';
import { createFixedRateSource } from './fixed.ts';
import { createKrakenRateSource } from './kraken.ts';
import type { RateSource } from './types.ts';
import { createYadioRateSource } from './yadio.ts';

/** The rate source configuration names (DESIGN §5); `fixed` is the devnet default. */
export function createRateSource(config: Pick<Config, 'rates'>): RateSource {
  const { source, fixed, sourceUrl } = config.rates;
  const options = sourceUrl === undefined ? {} : { baseUrl: sourceUrl };
  switch (source) {
    case 'fixed':
      return createFixedRateSource(fixed);
    case 'coinbase':
      return createCoinbaseRateSource(options);
    case 'kraken':
      return createKrakenRateSource(options);
    case 'yadio':
      return createYadioRateSource(options);
  }
}
