import { AppError } from '@rayo/shared';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { planRefund, type RefundedSoFar, refundableMsat } from './refunds.ts';

const sale = { totalMsat: 25_000_000n, totalMinor: 1_250n };

function refusal(run: () => unknown): string | undefined {
  try {
    run();
  } catch (error) {
    if (error instanceof AppError) return error.code;
    throw error;
  }
  return undefined;
}

describe('refund rule', () => {
  it('refuses a refund above what the sale still holds, and a refund of nothing', () => {
    expect(refusal(() => planRefund(sale, { msat: 0n, minor: 0n }, 25_000_001n))).toBe('RefundExceedsSale');
    expect(refusal(() => planRefund(sale, { msat: 20_000_000n, minor: 1_000n }, 5_000_001n))).toBe('RefundExceedsSale');
    expect(refusal(() => planRefund(sale, { msat: 25_000_000n, minor: 1_250n }, 1n))).toBe('RefundExceedsSale');
    expect(refusal(() => planRefund(sale, { msat: 0n, minor: 0n }, 0n))).toBe('InvalidAmount');
  });

  it('prices a part at the sale rate, rounded down, and the last part with the exact remainder', () => {
    expect(planRefund(sale, { msat: 0n, minor: 0n }, 10_000_001n).fiatMinor).toBe(500n);
    expect(planRefund(sale, { msat: 10_000_001n, minor: 500n }, 14_999_999n).fiatMinor).toBe(750n);
    expect(planRefund(sale, { msat: 0n, minor: 0n }, 25_000_000n).fiatMinor).toBe(1_250n);
  });

  // Any sale, any sequence of refund requests (some too large), and a payout of what stays with
  // the merchant: the customer's refunds plus the merchant's share are the sale, in msat and in
  // fiat, and nothing is refunded twice or beyond the sale.
  it('makes or loses no msat or cent across sale, refunds and payout', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 1n, max: 2_100_000_000_000_000_000n }),
        fc.bigInt({ min: 0n, max: 10_000_000_000_000n }),
        fc.array(fc.bigInt({ min: 1n, max: 2_200_000_000_000_000_000n }), { maxLength: 12 }),
        fc.boolean(),
        (totalMsat, totalMinor, requests, emptyAtEnd) => {
          const target = { totalMsat, totalMinor };
          let refunded: RefundedSoFar = { msat: 0n, minor: 0n };
          const attempts = emptyAtEnd ? [...requests, totalMsat] : requests;
          for (const request of attempts) {
            const amount = request % totalMsat === 0n ? totalMsat : request % totalMsat;
            const left = refundableMsat(target, refunded);
            const code = refusal(() => planRefund(target, refunded, amount));
            if (amount > left) {
              expect(code).toBe('RefundExceedsSale');
              continue;
            }
            const { fiatMinor } = planRefund(target, refunded, amount);
            expect(fiatMinor).toBeGreaterThanOrEqual(0n);
            refunded = { msat: refunded.msat + amount, minor: refunded.minor + fiatMinor };
          }
          const payoutMsat = refundableMsat(target, refunded);
          expect(refunded.msat + payoutMsat).toBe(totalMsat);
          expect(refunded.msat).toBeLessThanOrEqual(totalMsat);
          expect(refunded.minor).toBeLessThanOrEqual(totalMinor);
          if (refunded.msat === totalMsat) expect(refunded.minor).toBe(totalMinor);
        },
      ),
    );
  });
});
