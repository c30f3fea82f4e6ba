import type { EmailReceiptRequest, Language, Receipt, ReceiptLink } from '@rayo/shared';
import { useMutation, useQuery } from '@tanstack/react-query';
import { apiRequest } from './client.ts';

/** Receipts are public: the token in the link is all a reader needs. */
export function usePublicReceipt(token: string) {
  return useQuery({
    queryKey: ['public-receipt', token],
    queryFn: () => apiRequest<Receipt>(`/public/receipts/${encodeURIComponent(token)}`, { auth: false }),
    retry: false,
  });
}

/** The receipt link of a paid invoice, for the terminal's paid screen. */
export function useInvoiceReceiptLink(invoiceId: string) {
  return useQuery({
    queryKey: ['invoice-receipt', invoiceId],
    queryFn: () => apiRequest<ReceiptLink>(`/invoices/${encodeURIComponent(invoiceId)}/receipt`, { auth: false }),
    staleTime: Number.POSITIVE_INFINITY,
  });
}

export function useEmailReceipt() {
  return useMutation({
    mutationFn: ({ token, ...body }: EmailReceiptRequest & { token: string }) =>
      apiRequest<void>(`/public/receipts/${encodeURIComponent(token)}/email`, { method: 'POST', body, auth: false }),
  });
}

/** Where the browser downloads the receipt as a PDF on an 80 mm roll. */
export function receiptPdfUrl(token: string, language: Language): string {
  return `/api/public/receipts/${encodeURIComponent(token)}/pdf?language=${language}`;
}
