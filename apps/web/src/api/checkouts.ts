import { type CheckoutStatus, checkoutStatuses } from '@rayo/shared';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useEffectEvent } from 'react';
import { apiCall, callUrl } from './client.ts';
import { readStatusEvent } from './status-event.ts';

/** A checkout is public: its id is the link the merchant shared. */
export function checkoutQueryKey(id: string) {
  return ['public-checkout', id] as const;
}

export function usePublicCheckout(id: string) {
  return useQuery({
    queryKey: checkoutQueryKey(id),
    queryFn: () => apiCall('GET /api/public/checkouts/:id', { params: { id }, auth: false }),
    retry: false,
  });
}

/** How long to wait before opening a new stream after the server closed one for good. */
const REOPEN_DELAY_MS = 3_000;

/**
 * Follows a checkout's status over Server-Sent Events. Each (re)connect and each return to the
 * page also calls `onStatus(null)`, so the page reads the checkout again for what it missed.
 * Once the checkout is paid, or a while after it expired, the server ends the stream, and it is
 * not opened again.
 */
export function useCheckoutStatus(id: string | null, onStatus: (status: CheckoutStatus | null) => void): void {
  const notify = useEffectEvent(onStatus);

  useEffect(() => {
    if (!id) return;
    let source: EventSource | null = null;
    let reopenTimer: ReturnType<typeof setTimeout> | undefined;
    let stopped = false;
    let opened = false;
    let expired = false;

    const onMessage = (event: MessageEvent<string>) => {
      const status = readStatusEvent(event.data, id, checkoutStatuses);
      if (!status) return;
      if (status === 'paid') source?.close();
      expired = status === 'expired';
      notify(status);
    };
    const onOpen = () => {
      // The first read is the page's own; only a reconnect may have missed something.
      if (opened) notify(null);
      opened = true;
    };
    const open = () => {
      source = new EventSource(callUrl('GET /api/public/checkouts/:id/events', { params: { id } }));
      source.addEventListener('status', onMessage);
      source.addEventListener('open', onOpen);
      source.addEventListener('error', () => {
        // After an expiry the server ends the stream for good, and the browser must not reconnect.
        if (expired) source?.close();
        else if (source?.readyState === EventSource.CLOSED && !stopped) reopenTimer = setTimeout(open, REOPEN_DELAY_MS);
      });
    };
    const onVisible = () => {
      if (document.visibilityState === 'visible') notify(null);
    };

    open();
    document.addEventListener('visibilitychange', onVisible);
    return () => {
      stopped = true;
      clearTimeout(reopenTimer);
      source?.close();
      document.removeEventListener('visibilitychange', onVisible);
    };
  }, [id]);
}
