import { AppError } from '@rayo/shared';

/** A paid sale as refunds see it: what it received, in msat and in its currency's minor units. */
export type RefundableSale = { totalMsat: bigint; totalMinor: bigint };

/** What the sale's earlier refunds gave back. */
export type RefundedSoFar = { msat: bigint; minor: bigint };

/** What may still be refunded of a sale: what it received less its refunds, never below zero. */
export function refundableMsat(sale: RefundableSale, refunded: RefundedSoFar): bigint {
  const left = sale.totalMsat - refunded.msat;
  return left > 0n ? left : 0n;
}

/**
 * Checks a new refund against the rule "a sale's refunds add up to at most what it received" and
 * prices it in the sale's currency at the sale's own rate: its share of the charged total, rounded
 * down, and the exact remainder for the refund that empties the sale, so that refunding a sale in
 * full in any number of parts gives back exactly what the customer was charged.
 */
export function planRefund(sale: RefundableSale, refunded: RefundedSoFar, amountMsat: bigint): { fiatMinor: bigint } {
  if (amountMsat <= 0n) throw new AppError('InvalidAmount', 'A refund is more than 0 msat');
  const left = refundableMsat(sale, refunded);
  if (amountMsat > left) {
    throw new AppError('RefundExceedsSale', `This sale can be refunded at most ${left} msat more`);
  }
  if (amountMsat === left) return { fiatMinor: sale.totalMinor - refunded.minor };
  return { fiatMinor: (sale.totalMinor * amountMsat) / sale.totalMsat };
}
