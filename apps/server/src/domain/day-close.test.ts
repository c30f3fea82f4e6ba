import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type CloseGroup, type CloseTotals, closePeriodOf, summarizeClose } from './day-close.ts';

const amount = fc.bigInt({ min: 0n, max: 10n ** 15n });
const group: fc.Arbitrary<CloseGroup> = fc.record({
  accountId: fc.constantFrom('a1', 'a2', 'a3'),
  accountName: fc.constant(''),
  bptId: fc.constantFrom(null, 'b1', 'b2'),
  bptName: fc.constant(''),
  method: fc.constantFrom('lightning' as const, 'onchain' as const),
  hour: fc.integer({ min: 0, max: 23 }),
  count: fc.bigInt({ min: 1n, max: 1000n }),
  grossMinor: amount,
  tipsMinor: amount,
  taxMinor: amount,
  refundsMinor: amount,
  grossMsat: amount,
  feesMsat: amount,
  refundsMsat: amount,
});

function sum(totals: readonly CloseTotals[]): CloseTotals {
  const keys = Object.keys(totals[0] ?? {}) as Array<keyof CloseTotals>;
  return Object.fromEntries(keys.map((key) => [key, totals.reduce((s, t) => s + t[key], 0n)])) as CloseTotals;
}

describe('summarizeClose', () => {
  it('sums the hours, the methods, the accounts and their terminals to the day, to the msat', () => {
    fc.assert(
      fc.property(fc.array(group, { minLength: 1, maxLength: 60 }), (groups) => {
        const close = summarizeClose(groups);
        expect(sum(close.byHour.map((hour) => hour.totals))).toEqual(close.totals);
        expect(sum([close.byMethod.lightning, close.byMethod.onchain])).toEqual(close.totals);
        expect(sum(close.byAccount.map((account) => account.totals))).toEqual(close.totals);
        for (const account of close.byAccount) {
          expect(sum(account.byBpt.map((bpt) => bpt.totals))).toEqual(account.totals);
        }
        expect(close.totals.netMsat).toBe(close.totals.grossMsat - close.totals.feesMsat - close.totals.refundsMsat);
        expect(close.totals.count).toBe(groups.reduce((s, g) => s + g.count, 0n));
      }),
    );
  });

  it('answers a day without sales with zeros and no hours', () => {
    const close = summarizeClose([]);
    expect(close.totals.count).toBe(0n);
    expect(close.totals.netMsat).toBe(0n);
    expect(close.byHour).toEqual([]);
    expect(close.byMethod.onchain.grossMsat).toBe(0n);
  });
});

describe('closePeriodOf', () => {
  it('covers the day, the seven days or the month to the last day', () => {
    expect(closePeriodOf('daily', '2026-11-27')).toEqual({ fromDay: '2026-11-27', toDay: '2026-11-27' });
    expect(closePeriodOf('weekly', '2026-03-01')).toEqual({ fromDay: '2026-02-23', toDay: '2026-03-01' });
    expect(closePeriodOf('monthly', '2026-02-28')).toEqual({ fromDay: '2026-02-01', toDay: '2026-02-28' });
  });
});
