import { startOfDay } from '@rayo/shared';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type CloseGroup,
  type CloseTotals,
  closePeriodOf,
  hoursOfDay,
  repeatedHoursOf,
  summarizeClose,
} from './day-close.ts';

const amount = fc.bigInt({ min: 0n, max: 10n ** 15n });
const group: fc.Arbitrary<CloseGroup> = fc.record({
  accountId: fc.constantFrom('a1', 'a2', 'a3'),
  accountName: fc.constant(''),
  bptId: fc.constantFrom(null, 'b1', 'b2'),
  bptName: fc.constant(''),
  method: fc.constantFrom('lightning' as const, 'onchain' as const),
  hour: fc.integer({ min: 0, max: 23 }),
  fold: fc.constantFrom(0 as const, 1 as const),
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

describe('the hours of a local day', () => {
  it('are 25 the day the clocks go back, the repeated hour twice, and 23 the day they go forward', () => {
    const madridBack = hoursOfDay('2026-10-25', 'Europe/Madrid');
    expect(madridBack).toHaveLength(25);
    expect(madridBack.slice(1, 5)).toEqual([
      { hour: 1, fold: 0 },
      { hour: 2, fold: 0 },
      { hour: 2, fold: 1 },
      { hour: 3, fold: 0 },
    ]);
    const madridForward = hoursOfDay('2026-03-29', 'Europe/Madrid');
    expect(madridForward).toHaveLength(23);
    expect(madridForward.map((h) => h.hour)).not.toContain(2);
    // Havana goes back from 01:00 to 00:00: the day's first hour comes twice.
    expect(hoursOfDay('2026-11-01', 'America/Havana').slice(0, 3)).toEqual([
      { hour: 0, fold: 0 },
      { hour: 0, fold: 1 },
      { hour: 1, fold: 0 },
    ]);
    // Santiago goes back at midnight to 23:00 the evening before: that evening's last hour comes twice.
    expect(hoursOfDay('2026-04-04', 'America/Santiago').slice(-2)).toEqual([
      { hour: 23, fold: 0 },
      { hour: 23, fold: 1 },
    ]);
    expect(hoursOfDay('2026-11-27', 'America/Guatemala')).toEqual(
      Array.from({ length: 24 }, (_, hour) => ({ hour, fold: 0 })),
    );
    expect([...repeatedHoursOf('2026-10-19', '2026-10-25', 'Europe/Madrid')]).toEqual([2]);
    expect([...repeatedHoursOf('2026-10-26', '2026-11-01', 'Europe/Madrid')]).toEqual([]);
  });

  it('are as many as the day lasts, each wall-clock hour once or, repeated, twice in a row', () => {
    const zones = ['Europe/Madrid', 'America/Santiago', 'America/Havana', 'America/Guatemala', 'Asia/Kolkata'];
    const day = fc
      .date({ min: new Date('2020-01-01T00:00:00Z'), max: new Date('2030-12-31T00:00:00Z'), noInvalidDate: true })
      .map((date) => date.toISOString().slice(0, 10));
    // Random days seldom fall on a change: the changes of 2026 in these zones are drawn as often.
    const changes = ['2026-03-29', '2026-10-25', '2026-03-08', '2026-11-01', '2026-04-04', '2026-09-06'];
    const days = fc.oneof(day, fc.constantFrom(...changes));
    fc.assert(
      fc.property(fc.constantFrom(...zones), days, (zone, date) => {
        const [year = 0, month = 0, dayOfMonth = 0] = date.split('-').map(Number);
        const seconds =
          startOfDay({ year, month, day: dayOfMonth + 1 }, zone) - startOfDay({ year, month, day: dayOfMonth }, zone);
        const hours = hoursOfDay(date, zone);
        expect(hours).toHaveLength(seconds / 3600);
        expect([23, 24, 25]).toContain(hours.length);
        const keys = hours.map((h) => `${h.hour}/${h.fold}`);
        expect(new Set(keys).size).toBe(hours.length);
        hours.forEach((h, i) => {
          if (h.fold === 1) expect(hours[i - 1]).toEqual({ hour: h.hour, fold: 0 });
        });
        expect(hours.filter((h) => h.fold === 1)).toHaveLength(Math.max(0, hours.length - 24));
      }),
    );
  });
});

describe('summarizeClose by hour', () => {
  it('keeps the two runs of a repeated hour apart, the first first', () => {
    const base = { accountId: 'a', accountName: 'A', bptId: null, bptName: '', method: 'lightning' as const };
    const sums = {
      count: 1n,
      grossMinor: 100n,
      tipsMinor: 0n,
      taxMinor: 0n,
      refundsMinor: 0n,
      grossMsat: 1000n,
      feesMsat: 0n,
      refundsMsat: 0n,
    };
    const close = summarizeClose([
      { ...base, ...sums, hour: 3, fold: 0 },
      { ...base, ...sums, hour: 2, fold: 1 },
      { ...base, ...sums, hour: 2, fold: 0 },
      { ...base, ...sums, hour: 2, fold: 1 },
    ]);
    expect(close.byHour.map((h) => [h.hour, h.fold, h.totals.count])).toEqual([
      [2, 0, 1n],
      [2, 1, 2n],
      [3, 0, 1n],
    ]);
  });
});
