import { fiatReceived, type Quote } from '@rayo/shared';

/** What has arrived towards a checkout's quote, by either method. */
export type ArrivedPayments = {
  /** Outputs seen paying the checkout's address, confirmed or not. */
  onchainMsat: bigint;
  /** The checkout's Lightning invoices that were paid, and what they were booked at in the quote's currency. */
  lightningMsat: bigint;
  lightningMinor: bigint;
};

/** How much of a quote has arrived and how much is still to pay, in msat and in the quote's currency. */
export type QuoteProgress = {
  receivedMsat: bigint;
  receivedMinor: bigint;
  missingMsat: bigint;
  missingMinor: bigint;
};

/**
 * Where a checkout's payment stands against its quote. What arrived on-chain is worth its share of
 * the quote (`fiatReceived`, as the ledger books it); a Lightning payment is worth what its invoice
 * was booked at. What is missing is the rest of both, so that a last payment of exactly the
 * missing msat, booked at the missing minor units, completes the price with nothing made or lost.
 */
export function quoteProgress(quote: Quote, arrived: ArrivedPayments): QuoteProgress {
  const receivedMsat = arrived.onchainMsat + arrived.lightningMsat;
  const receivedMinor = fiatReceived(quote, arrived.onchainMsat) + arrived.lightningMinor;
  const missingMsat = receivedMsat < quote.msat ? quote.msat - receivedMsat : 0n;
  const missingMinor = missingMsat > 0n && receivedMinor < quote.minor ? quote.minor - receivedMinor : 0n;
  return { receivedMsat, receivedMinor, missingMsat, missingMinor };
}

/** Whole satoshis to ask for `msat`, rounded up so that paying them never falls short. */
export function satsToAsk(msat: bigint): bigint {
  return msat <= 0n ? 0n : (msat + 999n) / 1000n;
}
