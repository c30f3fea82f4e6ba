import { isKnownCurrency, parseBtcPrice, SATS } from '@rayo/shared';
import type { Rate, RateSource } from './types.ts';

/** A source that knows up front which currencies it quotes, so a refresh can ask for all of them. */
export type FixedRateSource = RateSource & { readonly currencies: readonly string[] };

function invalid(spec: string, reason: string): Error {
  return new Error(
    `Invalid FIXED_RATES "${spec}": ${reason}. Expected CODE=price of one bitcoin pairs, e.g. USD=95000,GTQ=730000`,
  );
}

/**
 * The devnet rate source: prices from configuration (`USD=95000,GTQ=730000`, major units per
 * bitcoin), read once so that a mistake stops the server at start rather than at the first sale.
 */
export function createFixedRateSource(spec: string): FixedRateSource {
  const rates = new Map<string, bigint>();
  for (const entry of spec.split(',')) {
    const [rawCode = '', rawPrice, ...rest] = entry.split('=');
    const code = rawCode.trim().toUpperCase();
    if (rawPrice === undefined || rest.length > 0) throw invalid(spec, `"${entry.trim()}" is not CODE=price`);
    if (code === SATS || !isKnownCurrency(code)) throw invalid(spec, `"${code}" is not an ISO 4217 currency code`);
    if (rates.has(code)) throw invalid(spec, `${code} is given twice`);
    try {
      rates.set(code, parseBtcPrice(rawPrice, code));
    } catch (error) {
      throw invalid(spec, error instanceof Error ? error.message : String(error));
    }
  }
  return {
    name: 'fixed',
    currencies: [...rates.keys()],
    async fetchRates(currencies: readonly string[]): Promise<Rate[]> {
      return [...new Set(currencies)].flatMap((currency) => {
        const rateMinorPerBtc = rates.get(currency);
        return rateMinorPerBtc === undefined ? [] : [{ currency, rateMinorPerBtc }];
      });
    },
  };
}
