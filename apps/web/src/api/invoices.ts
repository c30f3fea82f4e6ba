import { type InvoiceStatus, invoiceStatuses } from '@rayo/shared';
import { useMutation } from '@tanstack/react-query';
import { useEffect, useEffectEvent } from 'react';
import { apiCall, callUrl } from './client.ts';
import { readStatusEvent } from './status-event.ts';

/** Invoice calls are public: whoever shows an invoice may follow it. */
export function getInvoice(id: string) {
  return apiCall('GET /api/invoices/:id', { params: { id }, auth: false });
}

/** Pays an invoice from an LNURL-withdraw link, e.g. the one a Bolt Card holds. */
export function useLnurlWithdraw() {
  return useMutation({
    mutationFn: ({ invoiceId, lnurl }: { invoiceId: string; lnurl: string }) =>
      apiCall('POST /api/invoices/:id/lnurl-withdraw', { params: { id: invoiceId }, body: { lnurl }, auth: false }),
  });
}

/** How long to wait before opening a new stream after the server closed one for good. */
const REOPEN_DELAY_MS = 3_000;

/**
 * Follows an invoice's status over Server-Sent Events. EventSource reconnects by itself after
 * a dropped connection; a status sent while it was away would be missed, so every (re)connect
 * and every return to the page also reads the invoice once. Once the invoice is settled or
 * cancelled, or a while after it expired, the server ends the stream, and it is not opened
 * again: returns to the page still read the invoice.
 */
export function useInvoiceStatus(
  invoiceId: string | null,
  onStatus: (status: InvoiceStatus, invoiceId: string) => void,
): void {
  const notify = useEffectEvent(onStatus);

  useEffect(() => {
    if (!invoiceId) return;
    let source: EventSource | null = null;
    let reopenTimer: ReturnType<typeof setTimeout> | undefined;
    let stopped = false;
    let expired = false;

    const check = () => {
      getInvoice(invoiceId)
        .then((invoice) => {
          if (!stopped) notify(invoice.status, invoiceId);
        })
        .catch((error: unknown) => console.warn('Could not read the invoice status', error));
    };
    const onMessage = (event: MessageEvent<string>) => {
      const status = readStatusEvent(event.data, invoiceId, invoiceStatuses);
      if (!status) return;
      if (status === 'settled' || status === 'cancelled') source?.close();
      expired = status === 'expired';
      notify(status, invoiceId);
    };
    const open = () => {
      source = new EventSource(callUrl('GET /api/invoices/:id/events', { params: { id: invoiceId } }));
      source.addEventListener('status', onMessage);
      source.addEventListener('open', check);
      source.addEventListener('error', () => {
        // After an expiry the server ends the stream for good, and the browser must not reconnect.
        if (expired) source?.close();
        // A refused stream (e.g. an error status) is not retried by the browser itself.
        else if (source?.readyState === EventSource.CLOSED && !stopped) {
          reopenTimer = setTimeout(open, REOPEN_DELAY_MS);
        }
      });
    };
    const onVisible = () => {
      if (document.visibilityState === 'visible') check();
    };

    open();
    document.addEventListener('visibilitychange', onVisible);
    window.addEventListener('focus', check);
    return () => {
      stopped = true;
      clearTimeout(reopenTimer);
      source?.close();
      document.removeEventListener('visibilitychange', onVisible);
      window.removeEventListener('focus', check);
    };
  }, [invoiceId]);
}
