import type { InvoiceStatus } from '@rayo/shared';
import type { App } from '../../http/app-type.ts';
import { createConcurrencyLimit } from '../../http/concurrency.ts';
import { registerCall } from '../../http/contract.ts';
import { clientOf, enforceRateLimit, type RateLimitDeps, type RateLimitRule } from '../../http/rate-limit.ts';
import { openEventStream } from '../../http/sse.ts';
import type { InvoiceEventHub } from '../ledger/invoice-events.ts';
import { getInvoice, type InvoiceDeps, payInvoiceWithLnurlWithdraw } from './invoices.service.ts';

/**
 * Paying by LNURL-withdraw makes the server fetch a link anyone may send: bounded per client and
 * per invoice (a cashier retries a card a few times at most), and in flight per client and in all.
 */
const lnurlWithdrawPerIp: RateLimitRule = { name: 'lnurl-withdraw-ip', limit: 30, windowSeconds: 60 };
const lnurlWithdrawPerInvoice: RateLimitRule = { name: 'lnurl-withdraw-invoice', limit: 10, windowSeconds: 60 };
const lnurlWithdrawConcurrency = { perKey: 4, total: 32 };

/** Statuses only move forward: pending, then expired or cancelled, and settled last (a late payment). */
const statusRank: Record<InvoiceStatus, number> = { pending: 0, expired: 1, cancelled: 1, settled: 2 };
/**
 * Once settled or cancelled the page has its answer and the stream ends; once expired it ends a
 * grace period later (`EVENT_STREAM_GRACE_SECONDS`), for a payment already on its way, so that
 * streams to invoices nobody will pay do not hold a place until the page is closed.
 */
function endsAfterMs(status: InvoiceStatus, graceSeconds: number): number | undefined {
  if (status === 'settled' || status === 'cancelled') return 0;
  return status === 'expired' ? graceSeconds * 1000 : undefined;
}

/**
 * An invoice's id is a random UUID handed only to whoever created it, so reading its status and
 * paying it need no session: the terminal, the shareable terminal and checkout pages use these.
 */
export function registerInvoiceRoutes(app: App, deps: InvoiceDeps & { events: InvoiceEventHub } & RateLimitDeps): void {
  const { withSlot: withWithdrawSlot } = createConcurrencyLimit(lnurlWithdrawConcurrency, {
    perKey: 'Too many card payments at once from your address, try again shortly',
    total: 'Too many card payments at once, try again shortly',
  });

  registerCall(app, 'GET /api/invoices/:id', async (request) => getInvoice(deps.db, request.params.id));

  registerCall(app, 'GET /api/invoices/:id/events', async (request, reply) => {
    const { id } = request.params;
    await getInvoice(deps.db, id);
    const stream = openEventStream(request, reply);
    let last: InvoiceStatus | undefined;
    // A read that started before an event may finish after it: never step back from a later status.
    const publish = (status: InvoiceStatus) => {
      if (last !== undefined && statusRank[status] <= statusRank[last]) return;
      last = status;
      stream.send('status', { id, status });
      const ending = endsAfterMs(status, deps.config.eventStreamGraceSeconds);
      if (ending !== undefined) stream.end(ending);
    };
    const reread = () =>
      getInvoice(deps.db, id).then(
        (invoice) => publish(invoice.status),
        (error: unknown) =>
          request.log.warn(
            { err: error },
            'could not read an invoice for its event stream; the page gets it at its next change',
          ),
      );
    stream.onClose(deps.events.subscribe(id, (status) => (status ? publish(status) : reread())));
    await reread();
    return reply;
  });

  registerCall(app, 'POST /api/invoices/:id/lnurl-withdraw', async (request, reply) => {
    const { id } = request.params;
    await enforceRateLimit(deps, reply, lnurlWithdrawPerIp, clientOf(request));
    await enforceRateLimit(deps, reply, lnurlWithdrawPerInvoice, id);
    return withWithdrawSlot(clientOf(request), () =>
      payInvoiceWithLnurlWithdraw(deps, id, request.body.lnurl, request.log),
    );
  });
}
