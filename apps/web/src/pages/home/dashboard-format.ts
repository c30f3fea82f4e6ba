import {
  civilDateAt,
  msatToWholeSats,
  type PeriodRange,
  type SeriesBucket,
  startOfDay,
  type TransactionSeries,
  type TransactionSums,
} from '@rayo/shared';
import { formatDecimalMoney, formatMsatAsSats } from '../../components/money-format.ts';

export type MetricKey = 'receiveMsat' | 'msatsToDisburse' | 'receiveFiat' | 'fiatToDisburse';
export type Metric = { key: MetricKey; value: string };

/** The four SPEC §3 metrics as people read them: msat as sats, fiat in the organization's currency. */
export function formatMetrics(sums: TransactionSums, locale: string): Metric[] {
  return [
    { key: 'receiveMsat', value: formatMsatAsSats(sums.receiveMsat, locale) },
    { key: 'msatsToDisburse', value: formatMsatAsSats(sums.msatsToDisburse, locale) },
    { key: 'receiveFiat', value: formatDecimalMoney(sums.receiveFiat, sums.currency, locale) },
    { key: 'fiatToDisburse', value: formatDecimalMoney(sums.fiatToDisburse, sums.currency, locale) },
  ];
}

export type ChartPoint = { label: string; salesFiat: number; salesSats: number; count: number; tipsFiat: number };

/**
 * Chart rows of a series. Recharts positions bars with JavaScript numbers, so amounts become
 * numbers here and only here, to be drawn; every figure printed as text comes from the exact
 * decimal strings instead.
 */
export function chartPoints(series: TransactionSeries, locale: string): ChartPoint[] {
  const label = bucketLabel(series.bucket, series.timeZone, locale);
  return series.points.map((point) => ({
    label: label(point.start),
    salesFiat: Number(point.salesFiat),
    salesSats: Number(msatToWholeSats(point.salesMsat)),
    count: point.count,
    tipsFiat: Number(point.tipsFiat),
  }));
}

/** The x-axis label of a bucket start, in the organization's time zone and the user's language. */
export function bucketLabel(bucket: SeriesBucket, timeZone: string, locale: string): (start: number) => string {
  const options: Intl.DateTimeFormatOptions =
    bucket === 'hour'
      ? { hour: 'numeric' }
      : bucket === 'day'
        ? { day: 'numeric', month: 'short' }
        : { month: 'short', year: 'numeric' };
  const format = new Intl.DateTimeFormat(locale, { ...options, timeZone });
  return (start) => format.format(start * 1000);
}

/** A plotted number for the axis and tooltip: grouped per language, at most the currency's decimals. */
export function chartNumber(locale: string, maximumFractionDigits = 2): (value: number) => string {
  const format = new Intl.NumberFormat(locale, { maximumFractionDigits });
  return (value) => format.format(value);
}

type SeriesPoint = TransactionSeries['points'][number];

/** The start of the bucket after `start`, in the zone (days and months vary in length). */
function nextBucket(start: number, bucket: SeriesBucket, timeZone: string): number {
  if (bucket === 'hour') return start + 3600;
  const date = civilDateAt(start * 1000, timeZone);
  return bucket === 'day'
    ? startOfDay({ ...date, day: date.day + 1 }, timeZone)
    : startOfDay({ ...date, month: date.month + 1, day: 1 }, timeZone);
}

/**
 * The API lists only buckets with sales; a chart over time needs the quiet ones too, as zeros,
 * from the period's start (or the first sale) up to its end or now, whichever comes first.
 */
export function fillBuckets(series: TransactionSeries, range: PeriodRange, now: Date): TransactionSeries {
  const [first] = series.points;
  if (!first) return series;
  const byStart = new Map(series.points.map((point) => [point.start, point] as const));
  const nowSeconds = Math.floor(now.getTime() / 1000);
  const last = series.points.at(-1)?.start ?? first.start;
  const end = Math.max(last + 1, Math.min(range.end ?? nowSeconds, nowSeconds));
  let start = range.start !== undefined ? Math.min(range.start, first.start) : first.start;
  const points: SeriesPoint[] = [];
  // A guard against a malformed series: no chart needs more than a few thousand buckets.
  while (start < end && points.length < 5000) {
    points.push(byStart.get(start) ?? { start, count: 0, salesMsat: 0, salesFiat: '0', tipsFiat: '0' });
    start = nextBucket(start, series.bucket, series.timeZone);
  }
  return { ...series, points };
}
