import { msatToFiatMinor } from '@rayo/shared';

/** A settled sale as the ledger split it: its split in basis points, its rate and currency. */
export type SplitSale = {
  fiatBps: number;
  onchainBps: number;
  lightningBps: number;
  rateMinorPerBtc: bigint;
  currency: string;
};

/** What one refund takes from each share of its sale; the fiat share also in the sale's minor units. */
export type RefundShares = { fiatMsat: bigint; onchainMsat: bigint; lightningMsat: bigint; fiatMinor: bigint };

const BPS = 10_000n;

/**
 * Splits a refund of `amountMsat` over the shares of its sale in the proportions the sale was
 * split by when it settled, so each share gives back its part: the Lightning part is taken from
 * Lightning payouts, the on-chain part from on-chain payouts, the fiat part from the fiat back
 * office transfers. Each part is rounded down and the few msat left go to the largest share (the
 * first of Lightning, on-chain, fiat when two are equal), so the parts add up to the refund
 * exactly and none is negative. The fiat part is also priced at the sale's own rate, in minor
 * units: the fiat parts of a sale's refunds so far (`fiatMsatBefore`) and of this one together,
 * rounded down, less what the earlier ones were priced at, so any sequence of refunds of a sale
 * prices its fiat parts exactly as one refund of their sum would.
 */
export function splitRefund(sale: SplitSale, fiatMsatBefore: bigint, amountMsat: bigint): RefundShares {
  if (amountMsat <= 0n) throw new Error(`A refund is more than 0 msat, got ${amountMsat}`);
  const bps = {
    lightning: BigInt(sale.lightningBps),
    onchain: BigInt(sale.onchainBps),
    fiat: BigInt(sale.fiatBps),
  };
  if (bps.lightning + bps.onchain + bps.fiat !== BPS) throw new Error('A sale split adds up to 10000 bps');
  const parts = {
    lightning: (amountMsat * bps.lightning) / BPS,
    onchain: (amountMsat * bps.onchain) / BPS,
    fiat: (amountMsat * bps.fiat) / BPS,
  };
  const largest = (['lightning', 'onchain', 'fiat'] as const).reduce((best, share) =>
    bps[share] > bps[best] ? share : best,
  );
  parts[largest] += amountMsat - parts.lightning - parts.onchain - parts.fiat;
  const fiatMinor =
    msatToFiatMinor(fiatMsatBefore + parts.fiat, sale.rateMinorPerBtc, sale.currency) -
    msatToFiatMinor(fiatMsatBefore, sale.rateMinorPerBtc, sale.currency);
  return { fiatMsat: parts.fiat, onchainMsat: parts.onchain, lightningMsat: parts.lightning, fiatMinor };
}
