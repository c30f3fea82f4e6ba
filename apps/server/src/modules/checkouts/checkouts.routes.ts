import type { App } from '../../http/app-type.ts';
import { registerCall } from '../../http/contract.ts';
import {
  clientOf,
  enforceRateLimit,
  enforceSharedLimit,
  type RateLimitDeps,
  type RateLimitRule,
  type SharedLimitRule,
} from '../../http/rate-limit.ts';
import { openEventStream } from '../../http/sse.ts';
import type { InvoiceDeps } from '../invoices/invoices.service.ts';
import type { CheckoutEventHub } from './checkout-events.ts';
import { getCheckoutStatus, getPublicCheckout } from './checkouts.service.ts';

/**
 * Reading a checkout may issue a Lightning invoice, and anyone with the link may read it: each
 * address gets a budget across checkouts, and each checkout one in all (a page reads it on open
 * and on each status change), so that a leaked link cannot flood the node; the payer's page
 * still reads within a fair share of it once other addresses have spent it.
 */
const readsPerIp: RateLimitRule = { name: 'checkout-read-ip', limit: 60, windowSeconds: 60 };
const readsPerCheckout: SharedLimitRule = {
  name: 'checkout-read',
  perCaller: 60,
  perLink: 120,
  guaranteed: 10,
  windowSeconds: 60,
};
const streamsPerCheckout: RateLimitRule = { name: 'checkout-events', limit: 60, windowSeconds: 60 };

/** Statuses only move forward; a late payment moves an expired checkout to paid. */
const statusRank = { awaiting_payment: 0, processing: 1, expired: 2, paid: 3 } as const;
/**
 * Once paid the page has its answer and the stream ends; once expired it ends a grace period
 * later (`EVENT_STREAM_GRACE_SECONDS`), in which a payment already on its way still shows as a
 * late one, so that a stream to a checkout nobody will pay does not hold a place until the page
 * is closed. A later late payment is seen on the page's next read.
 */
function endsAfterMs(status: keyof typeof statusRank, graceSeconds: number): number | undefined {
  if (status === 'paid') return 0;
  return status === 'expired' ? graceSeconds * 1000 : undefined;
}

/**
 * The hosted checkout page's calls. A checkout's id is a random UUID its merchant shares, so
 * they need no session.
 */
export function registerCheckoutRoutes(
  app: App,
  deps: InvoiceDeps & { checkoutEvents: CheckoutEventHub } & RateLimitDeps,
): void {
  registerCall(app, 'GET /api/public/checkouts/:id', async (request, reply) => {
    await enforceRateLimit(deps, reply, readsPerIp, clientOf(request));
    await enforceSharedLimit(deps, reply, readsPerCheckout, request.params.id, clientOf(request));
    return getPublicCheckout(deps, request.params.id);
  });

  registerCall(app, 'GET /api/public/checkouts/:id/events', async (request, reply) => {
    const { id } = request.params;
    await enforceRateLimit(deps, reply, streamsPerCheckout, `${id}:${clientOf(request)}`);
    await getCheckoutStatus(deps.db, id);
    const stream = openEventStream(request, reply);
    let last: keyof typeof statusRank | undefined;
    const publish = (status: keyof typeof statusRank) => {
      // The same status again is news too: another confirmation, or more paid on-chain.
      if (last !== undefined && statusRank[status] < statusRank[last]) return;
      last = status;
      stream.send('status', { id, status });
      const ending = endsAfterMs(status, deps.config.eventStreamGraceSeconds);
      if (ending !== undefined) stream.end(ending);
    };
    const reread = () =>
      getCheckoutStatus(deps.db, id).then(publish, (error: unknown) =>
        request.log.warn(
          { err: error },
          'could not read a checkout for its event stream; the page gets it at its next change',
        ),
      );
    stream.onClose(deps.checkoutEvents.subscribe(id, (status) => (status ? publish(status) : reread())));
    await reread();
    return reply;
  });
}
