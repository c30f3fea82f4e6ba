import { fiatOfPayment, fiatToMsat, type Quote } from '@rayo/shared';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { quoteProgress } from './checkout-payments.ts';

/** A checkout's quote: a fiat price charged in whole satoshis at a rate (minor units per bitcoin). */
const quote = fc
  .tuple(fc.bigInt({ min: 1n, max: 10n ** 9n }), fc.bigInt({ min: 10_000n, max: 10n ** 13n }))
  .map(([minor, rateMinorPerBtc]): Quote => {
    return { msat: fiatToMsat(minor, rateMinorPerBtc, 'GTQ'), minor, rateMinorPerBtc, currency: 'GTQ' };
  })
  .filter((q) => q.msat >= 2000n);

/** Whole satoshis that arrived on-chain in up to three outputs, short of the quote. */
function shortOutputs(q: Quote, cuts: number[]): bigint[] {
  const sats = q.msat / 1000n;
  const points = cuts.map((cut) => (BigInt(cut) * (sats - 1n)) / 1000n).sort((a, b) => (a < b ? -1 : 1));
  return [0n, ...points]
    .slice(1)
    .map((point, i) => (point - ([0n, ...points][i] as bigint)) * 1000n)
    .filter((msat) => msat > 0n);
}

describe('quoteProgress', () => {
  it('values a 6,219 of 8,219 sats on-chain payment of Q60.00 at Q45.39, with Q14.61 and 2,000 sats missing', () => {
    const q60: Quote = { msat: 8_219_000n, minor: 6000n, rateMinorPerBtc: 73_001_582n, currency: 'GTQ' };
    expect(quoteProgress(q60, { onchainMsat: 6_219_000n, lightningMsat: 0n, lightningMinor: 0n })).toEqual({
      receivedMsat: 6_219_000n,
      receivedMinor: 4539n,
      missingMsat: 2_000_000n,
      missingMinor: 1461n,
    });
  });

  it('adds up: what arrived and what is missing make the quote, in msat and in fiat', () => {
    fc.assert(
      fc.property(quote, fc.array(fc.integer({ min: 1, max: 1000 }), { minLength: 1, maxLength: 3 }), (q, cuts) => {
        const onchainMsat = shortOutputs(q, cuts).reduce((sum, msat) => sum + msat, 0n);
        const progress = quoteProgress(q, { onchainMsat, lightningMsat: 0n, lightningMinor: 0n });
        expect(progress.receivedMsat + progress.missingMsat).toBe(q.msat);
        expect(progress.receivedMinor + progress.missingMinor).toBe(q.minor);
      }),
    );
  });

  it('books a sale paid partly on-chain and the rest by Lightning at exactly its price, whichever is recorded first', () => {
    fc.assert(
      fc.property(quote, fc.array(fc.integer({ min: 1, max: 1000 }), { minLength: 1, maxLength: 3 }), (q, cuts) => {
        const outputs = shortOutputs(q, cuts);
        const onchainMsat = outputs.reduce((sum, msat) => sum + msat, 0n);
        // The Lightning invoice for the rest asks for what is missing, booked at the missing fiat.
        const rest = quoteProgress(q, { onchainMsat, lightningMsat: 0n, lightningMinor: 0n });
        // Each on-chain output is booked as the ledger books it: its part of the on-chain total.
        let before = 0n;
        let onchainMinor = 0n;
        for (const msat of outputs) {
          onchainMinor += fiatOfPayment(q, before, msat);
          before += msat;
        }
        expect(onchainMsat + rest.missingMsat).toBe(q.msat);
        expect(onchainMinor + rest.missingMinor).toBe(q.minor);
        // Once the rest is paid, nothing more is missing.
        const done = quoteProgress(q, {
          onchainMsat,
          lightningMsat: rest.missingMsat,
          lightningMinor: rest.missingMinor,
        });
        expect(done).toMatchObject({ receivedMsat: q.msat, receivedMinor: q.minor, missingMsat: 0n, missingMinor: 0n });
      }),
    );
  });

  it('misses nothing once the quote is covered, however much more arrived', () => {
    fc.assert(
      fc.property(quote, fc.bigInt({ min: 0n, max: 10n ** 9n }), (q, extra) => {
        const progress = quoteProgress(q, { onchainMsat: q.msat + extra, lightningMsat: 0n, lightningMinor: 0n });
        expect(progress).toMatchObject({ missingMsat: 0n, missingMinor: 0n });
        expect(progress.receivedMinor >= q.minor).toBe(true);
      }),
    );
  });
});
