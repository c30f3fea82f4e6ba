import { describe, expect, it } from 'vitest';
import { formatDecimalMoney, formatMoney, formatMsatAsSats, formatSats } from '../../components/money-format.ts';
import { bucketLabel, chartPoints, fillBuckets, formatMetrics } from './dashboard-format.ts';

const sums = {
  receiveMsat: 123_456_789_000,
  msatsToDisburse: 2_089_500,
  receiveFiat: '1234567.5',
  fiatToDisburse: '0.05',
  currency: 'GTQ',
};

describe('formatMetrics', () => {
  it('shows msat as sats and fiat with the currency, in English', () => {
    expect(formatMetrics(sums, 'en').map((metric) => metric.value)).toEqual([
      '123,456,789 sats',
      '2,089 sats',
      'GTQ\u00a01,234,567.50',
      'GTQ\u00a00.05',
    ]);
  });

  it('uses Spanish separators in Spanish', () => {
    expect(formatMetrics(sums, 'es').map((metric) => metric.value)).toEqual([
      '123.456.789 sats',
      '2089 sats',
      '1.234.567,50\u00a0GTQ',
      '0,05\u00a0GTQ',
    ]);
  });

  it('shows zero sums as zero', () => {
    const zero = { receiveMsat: 0, msatsToDisburse: 0, receiveFiat: '0', fiatToDisburse: '0', currency: 'USD' };
    expect(formatMetrics(zero, 'en').map((metric) => metric.value)).toEqual([
      '0 sats',
      '0 sats',
      'USD\u00a00.00',
      'USD\u00a00.00',
    ]);
  });
});

describe('money display', () => {
  it('keeps every decimal a figure has, and at least the currency’s', () => {
    expect(formatDecimalMoney('12.5', 'USD', 'en')).toBe('USD\u00a012.50');
    expect(formatDecimalMoney('0.125', 'USD', 'en')).toBe('USD\u00a00.125');
    expect(formatDecimalMoney('1250', 'JPY', 'en')).toBe('JPY\u00a01,250');
    expect(formatDecimalMoney('90071992547409.93', 'USD', 'en')).toBe('USD\u00a090,071,992,547,409.93');
  });

  it('shows amounts with the currency decimals', () => {
    expect(formatMoney(1250n, 'USD', 'en')).toBe('USD\u00a012.50');
    expect(formatMoney(1250n, 'JPY', 'en')).toBe('JPY\u00a01,250');
    expect(formatMoney(123456n, 'EUR', 'es')).toBe('1234,56\u00a0EUR');
    expect(formatMoney(2101n, 'SAT', 'en')).toBe('2,101 sats');
    expect(formatSats(158814n, 'en')).toBe('158,814 sats');
  });

  it('shows sats whole, rounded down, with no msat fraction', () => {
    expect(formatMsatAsSats(1, 'en')).toBe('0 sats');
    expect(formatMsatAsSats(1_234_567, 'en')).toBe('1,234 sats');
    expect(formatMsatAsSats(1_234_999, 'es')).toBe('1234 sats');
    expect(formatMsatAsSats(Number.MAX_SAFE_INTEGER, 'en')).toBe('9,007,199,254,740 sats');
  });
});

describe('charts and dates', () => {
  it('labels buckets in the organization’s zone and the user’s language', () => {
    // 2026-03-01 00:00 in Guatemala.
    const start = Date.UTC(2026, 2, 1, 6) / 1000;
    expect(bucketLabel('day', 'America/Guatemala', 'en')(start)).toBe('Mar 1');
    expect(bucketLabel('day', 'America/Guatemala', 'es')(start)).toBe('1 mar');
    expect(bucketLabel('month', 'America/Guatemala', 'en')(start)).toBe('Mar 2026');
    expect(bucketLabel('hour', 'America/Guatemala', 'en')(start + 3600 * 13)).toBe('1 PM');
  });

  it('turns series points into chart rows', () => {
    const series = {
      bucket: 'day' as const,
      timeZone: 'UTC',
      currency: 'GTQ',
      points: [{ start: 0, count: 3, salesMsat: 2_089_600, salesFiat: '15.25', tipsFiat: '1.25' }],
      byAccount: [],
    };
    expect(chartPoints(series, 'en')).toEqual([
      { label: 'Jan 1', salesFiat: 15.25, salesSats: 2089, count: 3, tipsFiat: 1.25 },
    ]);
  });
});

describe('fillBuckets', () => {
  const empty = { count: 0, salesMsat: 0, salesFiat: '0', tipsFiat: '0' };
  const sale = { count: 1, salesMsat: 1000, salesFiat: '1.00', tipsFiat: '0.00' };
  const base = { timeZone: 'America/New_York', currency: 'USD', byAccount: [] };

  it('adds the quiet hours of a day up to now', () => {
    const start = Date.UTC(2026, 2, 16, 4) / 1000;
    const series = { ...base, bucket: 'hour' as const, points: [{ start: start + 7200, ...sale }] };
    const filled = fillBuckets(series, { start, end: start + 86_400 }, new Date((start + 4 * 3600 + 60) * 1000));
    expect(filled.points.map((point) => point.start - start)).toEqual([0, 3600, 7200, 10_800, 14_400]);
    expect(filled.points[0]).toEqual({ start, ...empty });
    expect(filled.points[2]).toEqual({ start: start + 7200, ...sale });
  });

  it('steps days and months by the calendar of the zone, across daylight saving', () => {
    // 2026-03-07 and 2026-03-09 in New York, around the 23-hour 8th.
    const days = [Date.UTC(2026, 2, 7, 5) / 1000, Date.UTC(2026, 2, 9, 4) / 1000];
    const series = { ...base, bucket: 'day' as const, points: days.map((start) => ({ start, ...sale })) };
    const filled = fillBuckets(
      series,
      { start: days[0], end: (days[1] ?? 0) + 86_400 },
      new Date('2026-04-01T00:00:00Z'),
    );
    expect(filled.points.map((point) => new Date(point.start * 1000).toISOString())).toEqual([
      '2026-03-07T05:00:00.000Z',
      '2026-03-08T05:00:00.000Z',
      '2026-03-09T04:00:00.000Z',
    ]);
    const months = { ...base, bucket: 'month' as const, points: [{ start: Date.UTC(2026, 0, 1, 5) / 1000, ...sale }] };
    const year = { start: Date.UTC(2026, 0, 1, 5) / 1000, end: Date.UTC(2027, 0, 1, 5) / 1000 };
    expect(fillBuckets(months, year, new Date('2026-03-20T00:00:00Z')).points).toHaveLength(3);
  });
});
