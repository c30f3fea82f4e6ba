/**
 * A rate is the price of one bitcoin in the currency's minor unit (cents for USD, centavos for
 * GTQ), as an integer, so conversions stay exact.
 */
export type Rate = { currency: string; rateMinorPerBtc: bigint };

export class RateSourceError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'RateSourceError';
  }
}

/** Where bitcoin prices come from (DESIGN §5). */
export interface RateSource {
  readonly name: string;
  /** Prices for as many of `currencies` as the source quotes; the others are left out. */
  fetchRates(currencies: readonly string[]): Promise<Rate[]>;
}
