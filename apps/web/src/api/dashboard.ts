import {
  type CustomDays,
  type PeriodPreset,
  type PeriodRange,
  periodRange,
  type SaleSource,
  type SeriesBucket,
  type SortOrder,
  type TransactionSort,
  type TransactionSums,
} from '@rayo/shared';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { saveBlob } from '../components/save-blob.ts';
import { apiCall, apiFile } from './client.ts';

/** What every dashboard call is filtered by: a period and `all` or one account id. */
export type DashboardFilter = PeriodRange & { account: string };

/**
 * What the table and the CSV narrow to besides the period and account, as the API's query:
 * `{ source }`, `{ paidVia: 'onchain' }` (whatever the source) or nothing. The sums and charts
 * do not narrow by it.
 */
export type SaleNarrowing = { source?: SaleSource; paidVia?: 'onchain' };

/** A period placed in the organization's zone, for one account or `all`. */
export function dashboardFilter(
  timeZone: string,
  preset: PeriodPreset,
  custom: CustomDays | null,
  account: string,
): DashboardFilter {
  return { ...periodRange(preset, new Date(), timeZone, custom), account };
}

export const currentOrganizationQuery = queryOptions({
  queryKey: ['organization', 'current'],
  // The page's head asks for it early when home opens (`HOME_EARLY_PATHS`).
  queryFn: () => apiCall('GET /api/organization/current'),
  staleTime: 5 * 60_000,
});

export function useCurrentOrganization(options: { enabled?: boolean } = {}) {
  return useQuery({ ...currentOrganizationQuery, enabled: options.enabled ?? true });
}

/**
 * Figures just asked for are not asked for again when a part of the page mounts with that
 * question: home's first figures are asked for before the page renders.
 */
const JUST_ASKED_MS = 2000;

/**
 * A part of the page that mounts with a question another part already shows takes that answer,
 * however long ago it came (home's table loads after the CSV button asked for the same first
 * page, later still on a busy machine); a question nobody shows is asked again once stale. The
 * count includes the part mounting.
 */
function unlessShownElsewhere(query: { getObserversCount(): number }): boolean {
  return query.getObserversCount() <= 1;
}

/** Dashboard figures are only asked for once the organization's time zone has placed the period. */
export type TableSort = { column: TransactionSort; order: SortOrder };
const NEWEST_SETTLED: TableSort = { column: 'settledAt', order: 'desc' };

export function transactionPageQuery(
  filter: DashboardFilter | null,
  page: number,
  limit: number,
  sort: TableSort = NEWEST_SETTLED,
  narrowing: SaleNarrowing = {},
) {
  return queryOptions({
    queryKey: ['dashboard', 'transactions', filter, page, limit, sort.column, sort.order, narrowing],
    queryFn: () =>
      apiCall('GET /api/dashboard/transactions', {
        query: { ...(filter as DashboardFilter), page, limit, sort: sort.column, order: sort.order, ...narrowing },
      }),
    staleTime: JUST_ASKED_MS,
    refetchOnMount: unlessShownElsewhere,
  });
}

export function useTransactionPage(
  filter: DashboardFilter | null,
  page: number,
  limit: number,
  sort: TableSort = NEWEST_SETTLED,
  narrowing: SaleNarrowing = {},
) {
  return useQuery({
    ...transactionPageQuery(filter, page, limit, sort, narrowing),
    enabled: filter !== null,
    placeholderData: keepPreviousData,
  });
}

export function transactionSumsQuery(filter: DashboardFilter | null) {
  return queryOptions({
    queryKey: ['dashboard', 'sums', filter],
    queryFn: () => apiCall('GET /api/dashboard/transactions/sum', { query: filter as DashboardFilter }),
    staleTime: JUST_ASKED_MS,
    refetchOnMount: unlessShownElsewhere,
  });
}

export function useTransactionSums(filter: DashboardFilter | null) {
  return useQuery({ ...transactionSumsQuery(filter), enabled: filter !== null, placeholderData: keepPreviousData });
}

export function useTransactionSeries(filter: DashboardFilter | null, bucket: SeriesBucket) {
  return useQuery({
    queryKey: ['dashboard', 'series', filter, bucket],
    queryFn: () =>
      apiCall('GET /api/dashboard/transactions/series', { query: { ...(filter as DashboardFilter), bucket } }),
    enabled: filter !== null,
    placeholderData: keepPreviousData,
  });
}

/** SPEC §8: when the sums fail to load they read zero. */
export function zeroSums(currency: string): TransactionSums {
  return { msatsToDisburse: 0, receiveMsat: 0, fiatToDisburse: '0', receiveFiat: '0', currency };
}

/** The file name a Content-Disposition header proposes, preferring the RFC 6266 `filename*` form. */
export function filenameFromDisposition(header: string | null, fallback: string): string {
  if (!header) return fallback;
  const extended = /filename\*\s*=\s*(?:UTF-8|utf-8)''([^;]+)/.exec(header);
  if (extended?.[1]) {
    try {
      return decodeURIComponent(extended[1].trim());
    } catch {
      // A malformed escape falls through to the plain parameter.
    }
  }
  const plain = /filename\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;\s]+))/.exec(header);
  const name = plain?.[1]?.replace(/\\(.)/g, '$1') ?? plain?.[2];
  return name?.trim() || fallback;
}

/**
 * Counts the records of a CSV as its text arrives in pieces: line breaks inside quoted fields
 * (RFC 4180) belong to their record, so the quote state is carried from one piece to the next.
 */
export function csvRowCounter(): (chunk: string) => number {
  let quoted = false;
  let rows = 0;
  return (chunk) => {
    for (const char of chunk) {
      if (char === '"') quoted = !quoted;
      else if (char === '\n' && !quoted) rows += 1;
    }
    return rows;
  };
}

export type CsvProgress = { bytes: number; rows: number };

/**
 * Downloads the CSV of a filter and hands it to the browser as a file. The body is read as a
 * stream so that the screen can count what has arrived; the count includes the header row,
 * which `onProgress` leaves out.
 */
export async function downloadTransactionsCsv(
  filter: DashboardFilter,
  narrowing: SaleNarrowing,
  onProgress: (progress: CsvProgress) => void,
): Promise<{ file: string; rows: number }> {
  const response = await apiFile('GET /api/dashboard/transactions/csv', { query: { ...filter, ...narrowing } });
  const file = filenameFromDisposition(response.headers.get('content-disposition'), 'transactions.csv');
  const parts: BlobPart[] = [];
  const countRows = csvRowCounter();
  const decoder = new TextDecoder();
  let bytes = 0;
  let lines = 0;
  let lastByte = 0x0a;
  const reader = response.body?.getReader();
  while (reader) {
    const { done, value } = await reader.read();
    if (done) break;
    parts.push(value);
    bytes += value.byteLength;
    lastByte = value.at(-1) ?? lastByte;
    lines = countRows(decoder.decode(value, { stream: true }));
    onProgress({ bytes, rows: Math.max(0, lines - 1) });
  }
  // A last record without a closing line break still counts.
  if (lastByte !== 0x0a) lines += 1;
  saveBlob(new Blob(parts, { type: 'text/csv;charset=utf-8' }), file);
  return { file, rows: Math.max(0, lines - 1) };
}
