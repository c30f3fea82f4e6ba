import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { computeSettlement, msatToFiatMinor, percentOf, SATS } from './money.ts';
import {
  missingVerifications,
  PayoutSplitRequestSchema,
  percentsToBps,
  type SplitPercents,
  splitAddsUp,
  splitForSale,
  VERIFICATIONS,
  type Verifications,
  verificationState,
  verificationsNeededFor,
} from './payout-split.ts';

const percent = fc.integer({ min: 0, max: 100 });
/** Every split of 100 into three whole percentages. */
const percents = fc
  .tuple(percent, percent)
  .map(([a, b]) => [Math.min(a, b), Math.max(a, b)] as const)
  .map(
    ([low, high]): SplitPercents => ({ fiatPercent: low, onchainPercent: high - low, lightningPercent: 100 - high }),
  );
const bps = fc.integer({ min: 0, max: 10_000 });
/** Up to the 1 BTC an invoice may charge, and a little past it. */
const totalMsat = fc.bigInt({ min: 0n, max: 2n * 100_000_000_000n });
const rate = fc.bigInt({ min: 1n, max: 10n ** 15n });
const currency = fc.constantFrom('USD', 'GTQ', 'JPY', 'KWD', 'CLF', SATS);

describe('the payout split request', () => {
  it('takes three whole percentages that add up to 100', () => {
    fc.assert(
      fc.property(percents, (split) => {
        expect(PayoutSplitRequestSchema.safeParse(split).success).toBe(true);
      }),
    );
  });

  it('refuses sums other than 100, fractions, negatives and more than 100', () => {
    fc.assert(
      fc.property(percent, percent, percent, (fiatPercent, onchainPercent, lightningPercent) => {
        const split = { fiatPercent, onchainPercent, lightningPercent };
        expect(PayoutSplitRequestSchema.safeParse(split).success).toBe(splitAddsUp(split));
      }),
    );
    for (const split of [
      { fiatPercent: 50.5, onchainPercent: 0, lightningPercent: 49.5 },
      { fiatPercent: -10, onchainPercent: 10, lightningPercent: 100 },
      { fiatPercent: 200, onchainPercent: -50, lightningPercent: -50 },
      { fiatPercent: '50', onchainPercent: 0, lightningPercent: 50 },
      { fiatPercent: 50, lightningPercent: 50 },
    ]) {
      expect(PayoutSplitRequestSchema.safeParse(split).success, JSON.stringify(split)).toBe(false);
    }
  });

  it('becomes basis points that add up to 10000', () => {
    fc.assert(
      fc.property(percents, (split) => {
        const { fiatBps, onchainBps, lightningBps } = percentsToBps(split);
        expect(fiatBps + onchainBps + lightningBps).toBe(10_000);
        expect(fiatBps).toBe(split.fiatPercent * 100);
      }),
    );
  });
});

describe('missingVerifications', () => {
  const none: Verifications = {
    bank: false,
    crypto: false,
    disbursementAddress: false,
    conversionAddress: false,
    kyb: false,
  };
  const split = (fiatPercent: number, onchainPercent: number, lightningPercent: number) => ({
    fiatPercent,
    onchainPercent,
    lightningPercent,
  });

  it('asks only what the chosen shares rely on, and KYB always, in SPEC order', () => {
    expect(missingVerifications(none, split(100, 0, 0))).toEqual(['bank', 'conversionAddress', 'kyb']);
    expect(missingVerifications(none, split(0, 100, 0))).toEqual(['crypto', 'kyb']);
    expect(missingVerifications(none, split(0, 0, 100))).toEqual(['disbursementAddress', 'kyb']);
    expect(missingVerifications(none, split(40, 30, 30))).toEqual([...VERIFICATIONS]);
    expect(missingVerifications({ ...none, bank: true, conversionAddress: true, kyb: true }, split(100, 0, 0))).toEqual(
      [],
    );
    expect(missingVerifications({ ...none, kyb: true }, split(50, 0, 50))).toEqual([
      'bank',
      'disbursementAddress',
      'conversionAddress',
    ]);
  });

  it('asks nothing more of a split whose shares are all verified', () => {
    fc.assert(
      fc.property(percents, (chosen) => {
        const needed = verificationsNeededFor(chosen);
        const verified = Object.fromEntries(
          VERIFICATIONS.map((name) => [name, needed.includes(name)]),
        ) as Verifications;
        expect(missingVerifications(verified, chosen)).toEqual([]);
        expect(needed).toContain('kyb');
      }),
    );
  });
});

describe('verificationState', () => {
  const entries = { bankAccount: true, onchainAddress: false, lightningAddress: true, kybDocument: false };
  it('tells what waits for review from what was never entered', () => {
    const verifications: Verifications = {
      bank: false,
      crypto: false,
      disbursementAddress: true,
      conversionAddress: false,
      kyb: false,
    };
    expect(VERIFICATIONS.map((name) => verificationState(name, verifications, entries))).toEqual([
      'awaitingReview',
      'notEntered',
      'verified',
      'awaitingReview',
      'notEntered',
    ]);
  });
});

describe('settling a sale with a split', () => {
  it('pays a SAT sale’s fiat part in Lightning, and leaves other sales’ split alone', () => {
    fc.assert(
      fc.property(percents, currency, (split, code) => {
        const organization = percentsToBps(split);
        const applied = splitForSale(organization, code);
        expect(applied.fiatBps + applied.onchainBps + applied.lightningBps).toBe(10_000);
        expect(applied.onchainBps).toBe(organization.onchainBps);
        if (code === SATS) expect(applied.fiatBps).toBe(0);
        else expect(applied).toEqual(organization);
      }),
    );
  });

  it('never creates or loses a millisatoshi, converts exactly the fiat share, and rounds fiat down', () => {
    fc.assert(
      fc.property(
        totalMsat,
        rate,
        currency,
        bps,
        bps,
        percents,
        (total, rateMinorPerBtc, code, txFeeBps, conversionFeeBps, split) => {
          const applied = splitForSale(percentsToBps(split), code);
          const s = computeSettlement({
            totalMsat: total,
            rateMinorPerBtc,
            currency: code,
            txFeeBps,
            conversionFeeBps,
            split: applied,
          });
          // The ledger's two check constraints.
          expect(s.txFeeMsat + s.conversionFeeMsat + s.incomeMsat).toBe(total);
          expect(s.fiatMsat + s.onchainMsat + s.lightningMsat).toBe(s.incomeMsat);
          // The fiat share before its fee is the floor of its percentage of what the fee leaves.
          const net = total - s.txFeeMsat;
          const fiatGross = s.fiatMsat + s.conversionFeeMsat;
          expect(fiatGross).toBe((net * BigInt(applied.fiatBps)) / 10_000n);
          expect(s.conversionFeeMsat).toBe(percentOf(fiatGross, conversionFeeBps));
          // The remainders of the shares' rounding go to Lightning: under one msat per share.
          const exactLightning = net * BigInt(applied.lightningBps);
          expect(s.lightningMsat * 10_000n >= exactLightning).toBe(true);
          expect(s.lightningMsat * 10_000n < exactLightning + 2n * 10_000n).toBe(true);
          expect(s.fiatIncomeMinor).toBe(msatToFiatMinor(s.fiatMsat, rateMinorPerBtc, code));
          if (applied.fiatBps === 0) expect([s.fiatMsat, s.conversionFeeMsat, s.fiatIncomeMinor]).toEqual([0n, 0n, 0n]);
        },
      ),
    );
  });
});
