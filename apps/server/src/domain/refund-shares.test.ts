import { msatToFiatMinor } from '@rayo/shared';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type SplitSale, splitRefund } from './refund-shares.ts';

const split = fc
  .tuple(fc.integer({ min: 0, max: 10_000 }), fc.integer({ min: 0, max: 10_000 }))
  .map(([a, b]) => [Math.min(a, b), Math.max(a, b)] as const)
  .map(([low, high]) => ({ fiatBps: low, onchainBps: high - low, lightningBps: 10_000 - high }));

const sale: fc.Arbitrary<SplitSale> = fc
  .record({
    split,
    rateMinorPerBtc: fc.bigInt({ min: 1n, max: 10_000_000_000n }),
    currency: fc.constantFrom('USD', 'GTQ', 'JPY', 'KWD'),
  })
  .map(({ split, rateMinorPerBtc, currency }) => ({ ...split, rateMinorPerBtc, currency }));

describe('refund shares', () => {
  it('takes each share in the proportion the sale was split, the rounding to the largest share', () => {
    const usd = { rateMinorPerBtc: 9_500_000n, currency: 'USD' };
    expect(splitRefund({ ...usd, fiatBps: 5_000, onchainBps: 2_000, lightningBps: 3_000 }, 0n, 1_000_001n)).toEqual({
      fiatMsat: 500_001n,
      onchainMsat: 200_000n,
      lightningMsat: 300_000n,
      fiatMinor: 47n,
    });
    expect(splitRefund({ ...usd, fiatBps: 0, onchainBps: 0, lightningBps: 10_000 }, 0n, 7n)).toEqual({
      fiatMsat: 0n,
      onchainMsat: 0n,
      lightningMsat: 7n,
      fiatMinor: 0n,
    });
    // 100,000,000,000 msat is a bitcoin: at 95,000.00 USD, 10,000,000 msat of fiat share is 9.50 USD.
    expect(splitRefund({ ...usd, fiatBps: 10_000, onchainBps: 0, lightningBps: 0 }, 0n, 10_000_000n).fiatMinor).toBe(
      950n,
    );
  });

  it('never makes or loses an msat, never takes a negative part, and prices the fiat parts as one', () => {
    fc.assert(
      fc.property(
        sale,
        fc.array(fc.bigInt({ min: 1n, max: 5_000_000_000n }), { minLength: 1, maxLength: 8 }),
        (s, amounts) => {
          let fiatMsat = 0n;
          let fiatMinor = 0n;
          for (const amount of amounts) {
            const parts = splitRefund(s, fiatMsat, amount);
            expect(parts.fiatMsat + parts.onchainMsat + parts.lightningMsat).toBe(amount);
            for (const part of Object.values(parts)) expect(part >= 0n).toBe(true);
            if (s.fiatBps === 0) expect(parts.fiatMsat).toBe(0n);
            if (s.onchainBps === 0) expect(parts.onchainMsat).toBe(0n);
            if (s.lightningBps === 0) expect(parts.lightningMsat).toBe(0n);
            fiatMsat += parts.fiatMsat;
            fiatMinor += parts.fiatMinor;
          }
          expect(fiatMinor).toBe(msatToFiatMinor(fiatMsat, s.rateMinorPerBtc, s.currency));
        },
      ),
    );
  });
});
