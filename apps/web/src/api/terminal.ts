import type { CreateInvoiceRequest, Invoice, TerminalInfo, TerminalSale } from '@rayo/shared';
import { useMutation, useQuery } from '@tanstack/react-query';
import { apiRequest } from './client.ts';
import { publicEarlyPath } from './early-requests.ts';

/** A terminal is opened by a signed-in user by BPT id, or by anyone holding a shareable BPT's token. */
export type TerminalSource = { kind: 'bpt'; id: string } | { kind: 'shared'; token: string };

const LATEST_TRANSACTIONS = 10;
/** Rates move; the "≈ sats" line follows them while the terminal stays open. */
const RATE_REFRESH_MS = 60_000;

function endpoints(source: TerminalSource) {
  if (source.kind === 'bpt') {
    const base = `/bpts/${encodeURIComponent(source.id)}`;
    return { info: `${base}/terminal`, invoices: `${base}/invoices`, transactions: `${base}/transactions`, auth: true };
  }
  const base = publicEarlyPath('terminal', source.token);
  return { info: base, invoices: `${base}/invoices`, transactions: `${base}/transactions`, auth: false };
}

export function terminalKey(source: TerminalSource) {
  return ['terminal', source.kind, source.kind === 'bpt' ? source.id : source.token] as const;
}

export function useTerminalInfo(source: TerminalSource) {
  const { info, auth } = endpoints(source);
  return useQuery({
    queryKey: [...terminalKey(source), 'info'],
    queryFn: () => apiRequest<TerminalInfo>(info, { auth }),
    refetchInterval: RATE_REFRESH_MS,
  });
}

export function useLatestTransactions(source: TerminalSource) {
  const { transactions, auth } = endpoints(source);
  return useQuery({
    queryKey: [...terminalKey(source), 'transactions'],
    queryFn: () => apiRequest<TerminalSale[]>(`${transactions}?limit=${LATEST_TRANSACTIONS}`, { auth }),
  });
}

export function useCreateInvoice(source: TerminalSource) {
  const { invoices, auth } = endpoints(source);
  return useMutation({
    mutationFn: (request: CreateInvoiceRequest) =>
      apiRequest<Invoice>(invoices, { method: 'POST', body: request, auth }),
  });
}
