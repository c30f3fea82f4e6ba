import { describe, expect, it } from 'vitest';
import { formatDecimalMoney, formatMsatAsSats } from '../../components/money-format.ts';
import { bucketLabel, chartPoints, dateTimeFormatter, formatMetrics } from './dashboard-format.ts';

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
      '2,089.5 sats',
      'GTQ\u00a01,234,567.50',
      'GTQ\u00a00.05',
    ]);
  });

  it('uses Spanish separators in Spanish', () => {
    expect(formatMetrics(sums, 'es').map((metric) => metric.value)).toEqual([
      '123.456.789 sats',
      '2089,5 sats',
      '1.234.567,50\u00a0GTQ',
      '0,05\u00a0GTQ',
    ]);
  });

  it('shows zero sums as zero', () => {
    const zero = { receiveMsat: 0, msatsToDisburse: 0, receiveFiat: '0', fiatToDisburse: '0', currency: 'USD' };
    expect(formatMetrics(zero, 'en').map((metric) => metric.value)).toEqual(['0 sats', '0 sats', '$0.00', '$0.00']);
  });
});

describe('money display', () => {
  it('keeps every decimal a figure has, and at least the currency’s', () => {
    expect(formatDecimalMoney('12.5', 'USD', 'en')).toBe('$12.50');
    expect(formatDecimalMoney('0.125', 'USD', 'en')).toBe('$0.125');
    expect(formatDecimalMoney('1250', 'JPY', 'en')).toBe('¥1,250');
    expect(formatDecimalMoney('90071992547409.93', 'USD', 'en')).toBe('$90,071,992,547,409.93');
  });

  it('never rounds msat into whole sats', () => {
    expect(formatMsatAsSats(1, 'en')).toBe('0.001 sats');
    expect(formatMsatAsSats(Number.MAX_SAFE_INTEGER, 'en')).toBe('9,007,199,254,740.991 sats');
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
      { label: 'Jan 1', salesFiat: 15.25, salesSats: 2090, count: 3, tipsFiat: 1.25 },
    ]);
  });

  it('formats transaction dates in the organization’s zone', () => {
    expect(dateTimeFormatter('en', 'America/Guatemala')('2026-03-16T05:30:00.000Z')).toBe('Mar 15, 2026, 11:30 PM');
  });
});
