import type { EmailReceiptRequest, Language } from '@rayo/shared';
import { useMutation, useQuery } from '@tanstack/react-query';
import { apiCall, callUrl } from './client.ts';

/** Receipts are public: the token in the link is all a reader needs. */
export function usePublicReceipt(token: string) {
  return useQuery({
    queryKey: ['public-receipt', token],
    queryFn: () => apiCall('GET /api/public/receipts/:token', { params: { token }, auth: false }),
    retry: false,
  });
}

/** The receipt link of a paid invoice, for the terminal's paid screen. */
export function useInvoiceReceiptLink(invoiceId: string) {
  return useQuery({
    queryKey: ['invoice-receipt', invoiceId],
    queryFn: () => apiCall('GET /api/invoices/:id/receipt', { params: { id: invoiceId }, auth: false }),
    staleTime: Number.POSITIVE_INFINITY,
  });
}

export function useEmailReceipt() {
  return useMutation({
    mutationFn: ({ token, ...body }: EmailReceiptRequest & { token: string }) =>
      apiCall('POST /api/public/receipts/:token/email', { params: { token }, body, auth: false }),
  });
}

/** Where the browser downloads the receipt as a PDF on an 80 mm roll. */
export function receiptPdfUrl(token: string, language: Language): string {
  return callUrl('GET /api/public/receipts/:token/pdf', { params: { token }, query: { language } });
}
