import type { seriesBuckets } from './dashboard-options.ts';

/**
 * Period presets of the Home screen (SPEC §3 "Period presets", DESIGN §9), as unix seconds in
 * the organization's time zone: a merchant in Guatemala asking for "today" means Guatemala's
 * day, whatever the zone of the browser they look from. Only Intl is used, so every IANA zone
 * the browser knows works, with its daylight-saving rules.
 */

export const periodPresets = ['today', 'yesterday', 'last30', 'thisMonth', 'thisYear', 'custom', 'all'] as const;
export type PeriodPreset = (typeof periodPresets)[number];

/** `start` inclusive, `end` exclusive, unix seconds; both absent for the whole history. */
export type PeriodRange = { start?: number; end?: number };

/** A custom range as calendar days (`YYYY-MM-DD`), both included, as the date picker gives them. */
export type CustomDays = { from: string; to: string };

export type CivilDate = { year: number; month: number; day: number };

const partsFormats = new Map<string, Intl.DateTimeFormat>();

function partsFormat(timeZone: string): Intl.DateTimeFormat {
  let format = partsFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    partsFormats.set(timeZone, format);
  }
  return format;
}

/** The wall-clock reading of an instant in a zone, as if that reading were UTC (ms). */
function wallClockAsUtc(epochMs: number, timeZone: string): number {
  const parts = partsFormat(timeZone).formatToParts(epochMs);
  const part = (type: Intl.DateTimeFormatPartTypes) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  return Date.UTC(part('year'), part('month') - 1, part('day'), part('hour'), part('minute'), part('second'));
}

/** The zone's offset from UTC at an instant, in ms (negative west of Greenwich). */
function offsetAt(epochMs: number, timeZone: string): number {
  const wholeSecond = Math.floor(epochMs / 1000) * 1000;
  return wallClockAsUtc(wholeSecond, timeZone) - wholeSecond;
}

/**
 * An instant as ISO 8601 text on a zone's clock, with the zone's offset
 * ("2026-11-27T08:03:12.500-06:00"): the same instant as its UTC text, read as the organization
 * reads its day. Milliseconds are kept.
 */
export function isoInstantInZone(epochMs: number, timeZone: string): string {
  return zonedIso(epochMs, offsetAt(epochMs, timeZone));
}

const QUARTER_HOUR_MS = 900_000;

/**
 * `isoInstantInZone` for the many instants of one export: the zone's offset is looked up once per
 * quarter hour of UTC, since every zone changes its offset on one (St John's at 05:30 UTC,
 * Chatham at 14:00), instead of once per instant.
 */
export function isoInstantInZoneFormatter(timeZone: string): (epochMs: number) => string {
  const offsets = new Map<number, number>();
  return (epochMs) => {
    const quarter = Math.floor(epochMs / QUARTER_HOUR_MS);
    let offset = offsets.get(quarter);
    if (offset === undefined) {
      offset = offsetAt(quarter * QUARTER_HOUR_MS, timeZone);
      offsets.set(quarter, offset);
    }
    return zonedIso(epochMs, offset);
  };
}

function zonedIso(epochMs: number, offsetMs: number): string {
  const wall = new Date(epochMs + offsetMs).toISOString().slice(0, 23);
  const minutes = Math.round(Math.abs(offsetMs) / 60_000);
  const sign = offsetMs < 0 ? '-' : '+';
  return `${wall}${sign}${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
}

/** The calendar day an instant falls on in a zone. */
export function civilDateAt(epochMs: number, timeZone: string): CivilDate {
  const wall = new Date(wallClockAsUtc(epochMs, timeZone));
  return { year: wall.getUTCFullYear(), month: wall.getUTCMonth() + 1, day: wall.getUTCDate() };
}

/** The calendar day an instant falls on in a zone, as `YYYY-MM-DD`. */
export function dayAt(epochMs: number, timeZone: string): string {
  const { year, month, day } = civilDateAt(epochMs, timeZone);
  return `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/**
 * The first instant of a calendar day in a zone, in unix seconds. Day, month and year may
 * overflow (day 0, month 13) and are normalized like `Date.UTC` does. Where a daylight-saving
 * jump skips midnight, the day starts at the first wall-clock time that exists.
 */
export function startOfDay(date: CivilDate, timeZone: string): number {
  const wallMidnight = Date.UTC(date.year, date.month - 1, date.day);
  // The offset at "midnight read as UTC" is at most a day off the true instant; one correction
  // lands on the right side of any transition, a second one settles the gap case.
  let instant = wallMidnight - offsetAt(wallMidnight, timeZone);
  const corrected = wallMidnight - offsetAt(instant, timeZone);
  if (corrected !== instant) {
    const again = wallMidnight - offsetAt(corrected, timeZone);
    // In a gap the two guesses straddle the jump; the later one is the first existing instant.
    instant = again === corrected ? corrected : Math.max(corrected, again);
  }
  return Math.floor(instant / 1000);
}

function parseDay(day: string): CivilDate {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!match) throw new Error(`"${day}" is not a YYYY-MM-DD day`);
  return { year: Number(match[1]), month: Number(match[2]), day: Number(match[3]) };
}

/** The range of a preset at `now` in `timeZone`; `custom` needs the chosen days. */
export function periodRange(
  preset: PeriodPreset,
  now: Date,
  timeZone: string,
  custom?: CustomDays | null,
): PeriodRange {
  const today = civilDateAt(now.getTime(), timeZone);
  const day = (offset: number) => startOfDay({ ...today, day: today.day + offset }, timeZone);
  switch (preset) {
    case 'today':
      return { start: day(0), end: day(1) };
    case 'yesterday':
      return { start: day(-1), end: day(0) };
    case 'last30':
      // SPEC §3: the last 30 days through the end of today, today included.
      return { start: day(-29), end: day(1) };
    case 'thisMonth':
      return {
        start: startOfDay({ ...today, day: 1 }, timeZone),
        end: startOfDay({ ...today, month: today.month + 1, day: 1 }, timeZone),
      };
    case 'thisYear':
      return {
        start: startOfDay({ year: today.year, month: 1, day: 1 }, timeZone),
        end: startOfDay({ year: today.year + 1, month: 1, day: 1 }, timeZone),
      };
    case 'custom': {
      if (!custom) return {};
      const from = parseDay(custom.from);
      const to = parseDay(custom.to);
      return { start: startOfDay(from, timeZone), end: startOfDay({ ...to, day: to.day + 1 }, timeZone) };
    }
    case 'all':
      return {};
  }
}

export type SeriesBucket = (typeof seriesBuckets)[number];

const DAY = 86_400;

/** Hours for a day or two, days up to about three months, months beyond and for the whole history. */
export function bucketFor(range: PeriodRange): SeriesBucket {
  if (range.start === undefined || range.end === undefined) return 'month';
  const length = range.end - range.start;
  if (length <= 2 * DAY + 3600) return 'hour';
  if (length <= 93 * DAY) return 'day';
  return 'month';
}
