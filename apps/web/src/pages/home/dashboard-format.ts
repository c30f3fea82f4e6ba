import type { TransactionSeries, TransactionSums } from '@rayo/shared';
import { formatDecimalMoney, formatMsatAsSats } from '../../components/money-format.ts';
import type { SeriesBucket } from './period.ts';

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
    salesSats: Math.round(point.salesMsat / 1000),
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

/** A date and time of a transaction, in the organization's time zone. */
export function dateTimeFormatter(locale: string, timeZone: string): (iso: string) => string {
  const format = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short', timeZone });
  return (iso) => format.format(new Date(iso));
}
