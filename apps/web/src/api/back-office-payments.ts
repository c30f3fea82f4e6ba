import {
  BACK_OFFICE_EXPORT_PAGE_SIZE,
  dayAt,
  type OrganizationTransaction,
  PAY_TRANSACTIONS_LIMIT,
  type PayTransactionsRequest,
  transactionCsvLine,
  transactionsCsvHeader,
} from '@rayo/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { saveBlob } from '../components/save-blob.ts';
import { apiCall, apiFile, apiResponse, callUrl } from './client.ts';
import { filenameFromDisposition } from './dashboard.ts';

const paymentsKey = ['back-office', 'payments'] as const;

/** SPEC §8: a failed load is only logged; the list is then empty and the sums zero. */
export function useUnpaidTransactions(organizationId: string) {
  return useQuery({
    queryKey: [...paymentsKey, 'unpaid', organizationId],
    queryFn: () =>
      apiCall('GET /api/back-office/organization/:id/unpaid-transactions', { params: { id: organizationId } }),
  });
}

export function useCountryReport(countryId: number) {
  return useQuery({
    queryKey: [...paymentsKey, 'country-report', countryId],
    queryFn: () => apiCall('GET /api/back-office/country/:id/report', { params: { id: countryId } }),
  });
}

/**
 * Marks sales paid. A selection over the call's limit (a country's rows together) goes in
 * calls of PAY_TRANSACTIONS_LIMIT, each all or nothing. Every unpaid list and report reloads.
 */
export function usePayTransactions() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ ids, withoutBankAccount }: { ids: readonly string[]; withoutBankAccount: string[] }) => {
      let paid = 0;
      for (let start = 0; start < ids.length; start += PAY_TRANSACTIONS_LIMIT) {
        const body: PayTransactionsRequest = {
          transactionsIds: ids.slice(start, start + PAY_TRANSACTIONS_LIMIT),
          ...(withoutBankAccount.length > 0 && { withoutBankAccount }),
        };
        paid += (await apiCall('POST /api/back-office/pay-transactions', { body })).paid;
      }
      return paid;
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['back-office'] }),
  });
}

export type ExportProgress = { pages: number; rows: number; total: number };

/** A name as part of a file name: lowercase letters and digits joined by hyphens, accents dropped. */
function fileNamePart(name: string): string {
  const part = name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '');
  return part || 'organization';
}

/**
 * The ledger export's file, named like the merchant's own whole-history CSV
 * (`transactions_all_<day>.csv`) with the organization's name in front, so back office can tell
 * organizations' files apart; the day is the organization's.
 */
export function organizationExportFile(organization: { name: string; timeZone: string }, now: Date): string {
  return `transactions_${fileNamePart(organization.name)}_all_${dayAt(now.getTime(), organization.timeZone)}.csv`;
}

/**
 * SPEC §7: reads the organization's ledger page by page (BACK_OFFICE_EXPORT_PAGE_SIZE) until an
 * empty page, then saves the pages together as one CSV, with the columns and rules of the
 * merchant's own download (the shared TRANSACTIONS_CSV_COLUMNS), times on the organization's clock. `total` (the X-Total-Count header) tells
 * the progress bar how far along it is.
 */
export async function exportOrganizationTransactions(
  organizationId: string,
  organization: { file: string; timeZone: string },
  onProgress: (progress: ExportProgress) => void,
): Promise<{ rows: number; file: string }> {
  const { file, timeZone } = organization;
  const parts: string[] = [transactionsCsvHeader(timeZone)];
  let total = 0;
  let rows = 0;
  for (let page = 1; ; page += 1) {
    // Read as a response, not through `apiCall`, for its X-Total-Count header.
    const url = callUrl('GET /api/back-office/organization/:id/transactions', {
      params: { id: organizationId },
      query: { page, limit: BACK_OFFICE_EXPORT_PAGE_SIZE },
    });
    const response = await apiResponse(url.slice('/api'.length));
    total = Number(response.headers.get('x-total-count') ?? total) || total;
    const transactions = (await response.json()) as OrganizationTransaction[];
    if (transactions.length === 0) break;
    parts.push(transactions.map((transaction) => transactionCsvLine(transaction, timeZone)).join(''));
    rows += transactions.length;
    onProgress({ pages: page, rows, total });
  }
  saveBlob(new Blob(parts, { type: 'text/csv;charset=utf-8' }), file);
  return { rows, file };
}

/** The server's CSV of a country report, saved under the name it gives. */
export async function downloadCountryReportCsv(countryId: number): Promise<void> {
  const response = await apiFile('GET /api/back-office/country/:id/report/csv', { params: { id: countryId } });
  const file = filenameFromDisposition(response.headers.get('content-disposition'), 'country_report.csv');
  saveBlob(await response.blob(), file);
}
