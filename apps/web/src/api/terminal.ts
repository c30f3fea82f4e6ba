import type { CreateInvoiceRequest } from '@rayo/shared';
import { useMutation, useQuery } from '@tanstack/react-query';
import { apiCall } from './client.ts';

/** A terminal is opened by a signed-in user by BPT id, or by anyone holding a shareable BPT's token. */
export type TerminalSource = { kind: 'bpt'; id: string } | { kind: 'shared'; token: string };

const LATEST_TRANSACTIONS = 10;
/** Rates move; the "≈ sats" line follows them while the terminal stays open. */
const RATE_REFRESH_MS = 60_000;

export function terminalKey(source: TerminalSource) {
  return ['terminal', source.kind, source.kind === 'bpt' ? source.id : source.token] as const;
}

/** A shared terminal's path is the one the page's head asks for early (`PUBLIC_EARLY_PAGES.terminal`). */
export function useTerminalInfo(source: TerminalSource) {
  return useQuery({
    queryKey: [...terminalKey(source), 'info'],
    queryFn: () =>
      source.kind === 'bpt'
        ? apiCall('GET /api/bpts/:id/terminal', { params: { id: source.id } })
        : apiCall('GET /api/terminal/:token', { params: { token: source.token }, auth: false }),
    refetchInterval: RATE_REFRESH_MS,
  });
}

export function useLatestTransactions(source: TerminalSource) {
  const query = { limit: LATEST_TRANSACTIONS };
  return useQuery({
    queryKey: [...terminalKey(source), 'transactions'],
    queryFn: () =>
      source.kind === 'bpt'
        ? apiCall('GET /api/bpts/:id/transactions', { params: { id: source.id }, query })
        : apiCall('GET /api/terminal/:token/transactions', { params: { token: source.token }, query, auth: false }),
  });
}

export function useCreateInvoice(source: TerminalSource) {
  return useMutation({
    mutationFn: (body: CreateInvoiceRequest) =>
      source.kind === 'bpt'
        ? apiCall('POST /api/bpts/:id/invoices', { params: { id: source.id }, body })
        : apiCall('POST /api/terminal/:token/invoices', { params: { token: source.token }, body, auth: false }),
  });
}
