import { describe, expect, it } from 'vitest';
import { bucketFor, periodRange, startOfDay } from './period.ts';

const iso = (seconds: number | undefined) =>
  seconds === undefined ? undefined : new Date(seconds * 1000).toISOString();
const isoRange = (range: { start?: number; end?: number }) => ({ start: iso(range.start), end: iso(range.end) });

describe('periodRange in America/Guatemala (UTC−6, no daylight saving)', () => {
  const zone = 'America/Guatemala';
  // 2026-03-15 23:30 in Guatemala is already the 16th in UTC: the day is Guatemala's.
  const now = new Date('2026-03-16T05:30:00Z');

  it('today is local midnight to the next midnight', () => {
    expect(isoRange(periodRange('today', now, zone))).toEqual({
      start: '2026-03-15T06:00:00.000Z',
      end: '2026-03-16T06:00:00.000Z',
    });
  });

  it('yesterday is the day before', () => {
    expect(isoRange(periodRange('yesterday', now, zone))).toEqual({
      start: '2026-03-14T06:00:00.000Z',
      end: '2026-03-15T06:00:00.000Z',
    });
  });

  it('last 30 days are 30 local days ending at the end of today', () => {
    const range = periodRange('last30', now, zone);
    expect(isoRange(range)).toEqual({ start: '2026-02-14T06:00:00.000Z', end: '2026-03-16T06:00:00.000Z' });
    expect(((range.end ?? 0) - (range.start ?? 0)) / 86_400).toBe(30);
  });

  it('this month and this year start on the first local day', () => {
    expect(isoRange(periodRange('thisMonth', now, zone))).toEqual({
      start: '2026-03-01T06:00:00.000Z',
      end: '2026-04-01T06:00:00.000Z',
    });
    expect(isoRange(periodRange('thisYear', now, zone))).toEqual({
      start: '2026-01-01T06:00:00.000Z',
      end: '2027-01-01T06:00:00.000Z',
    });
  });

  it('all has no bounds, and custom covers both chosen days', () => {
    expect(periodRange('all', now, zone)).toEqual({});
    expect(periodRange('custom', now, zone, null)).toEqual({});
    expect(isoRange(periodRange('custom', now, zone, { from: '2026-02-27', to: '2026-03-02' }))).toEqual({
      start: '2026-02-27T06:00:00.000Z',
      end: '2026-03-03T06:00:00.000Z',
    });
  });
});

describe('periodRange across month and year boundaries', () => {
  it('rolls December into the next year and January back into the previous one', () => {
    const newYearsEve = new Date('2025-12-31T12:00:00Z');
    expect(isoRange(periodRange('thisMonth', newYearsEve, 'UTC'))).toEqual({
      start: '2025-12-01T00:00:00.000Z',
      end: '2026-01-01T00:00:00.000Z',
    });
    const newYearsDay = new Date('2026-01-01T12:00:00Z');
    expect(isoRange(periodRange('yesterday', newYearsDay, 'UTC'))).toEqual({
      start: '2025-12-31T00:00:00.000Z',
      end: '2026-01-01T00:00:00.000Z',
    });
  });

  it('uses the zone, not UTC, to decide the month and year', () => {
    // 2026-01-01 03:00 UTC is still 2025-12-31 in Guatemala.
    const now = new Date('2026-01-01T03:00:00Z');
    expect(isoRange(periodRange('thisYear', now, 'America/Guatemala'))).toEqual({
      start: '2025-01-01T06:00:00.000Z',
      end: '2026-01-01T06:00:00.000Z',
    });
    // …and already 2026-01-01 in Tokyo.
    expect(isoRange(periodRange('thisYear', now, 'Asia/Tokyo'))).toEqual({
      start: '2025-12-31T15:00:00.000Z',
      end: '2026-12-31T15:00:00.000Z',
    });
  });

  it('handles leap days', () => {
    const now = new Date('2028-03-01T12:00:00Z');
    expect(isoRange(periodRange('yesterday', now, 'UTC')).start).toBe('2028-02-29T00:00:00.000Z');
  });
});

describe('periodRange across daylight-saving changes', () => {
  it('gives the 23-hour spring-forward day in New York', () => {
    const range = periodRange('today', new Date('2026-03-08T15:00:00Z'), 'America/New_York');
    expect(isoRange(range)).toEqual({ start: '2026-03-08T05:00:00.000Z', end: '2026-03-09T04:00:00.000Z' });
    expect((range.end ?? 0) - (range.start ?? 0)).toBe(23 * 3600);
  });

  it('gives the 25-hour fall-back day in New York', () => {
    const range = periodRange('today', new Date('2026-11-01T15:00:00Z'), 'America/New_York');
    expect(isoRange(range)).toEqual({ start: '2026-11-01T04:00:00.000Z', end: '2026-11-02T05:00:00.000Z' });
    expect((range.end ?? 0) - (range.start ?? 0)).toBe(25 * 3600);
  });

  it('keeps Madrid midnights across the March change in the last 30 days and the month', () => {
    const now = new Date('2026-04-10T10:00:00Z');
    expect(isoRange(periodRange('last30', now, 'Europe/Madrid'))).toEqual({
      start: '2026-03-11T23:00:00.000Z',
      end: '2026-04-10T22:00:00.000Z',
    });
    expect(isoRange(periodRange('thisMonth', now, 'Europe/Madrid'))).toEqual({
      start: '2026-03-31T22:00:00.000Z',
      end: '2026-04-30T22:00:00.000Z',
    });
  });

  it('starts the day at the first existing instant where midnight is skipped', () => {
    // Santiago de Chile jumped from 00:00 to 01:00 on 2024-09-08.
    expect(iso(startOfDay({ year: 2024, month: 9, day: 8 }, 'America/Santiago'))).toBe('2024-09-08T04:00:00.000Z');
    expect(iso(startOfDay({ year: 2024, month: 9, day: 9 }, 'America/Santiago'))).toBe('2024-09-09T03:00:00.000Z');
  });
});

describe('bucketFor', () => {
  const now = new Date('2026-03-16T05:30:00Z');
  const zone = 'America/Guatemala';
  it('uses hours for a day, days for a month, months for a year and the whole history', () => {
    expect(bucketFor(periodRange('today', now, zone))).toBe('hour');
    expect(bucketFor(periodRange('yesterday', now, zone))).toBe('hour');
    expect(bucketFor(periodRange('last30', now, zone))).toBe('day');
    expect(bucketFor(periodRange('thisMonth', now, zone))).toBe('day');
    expect(bucketFor(periodRange('thisYear', now, zone))).toBe('month');
    expect(bucketFor(periodRange('all', now, zone))).toBe('month');
  });
});
