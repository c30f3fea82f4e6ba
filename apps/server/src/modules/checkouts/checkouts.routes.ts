import { PublicCheckoutSchema } from '@rayo/shared';
import { z } from 'zod';
import type { App } from '../../app.ts';
import { clientOf, enforceRateLimit, type RateLimitDeps, type RateLimitRule } from '../../http/rate-limit.ts';
import { openEventStream } from '../../http/sse.ts';
import type { InvoiceDeps } from '../invoices/invoices.service.ts';
import type { CheckoutEventHub } from './checkout-events.ts';
import { getCheckoutStatus, getPublicCheckout } from './checkouts.service.ts';

const IdParamsSchema = z.object({ id: z.uuid() });

/**
 * Reading a checkout may issue a Lightning invoice, and anyone with the link may read it: each
 * address gets a budget across checkouts, and each checkout one in all (a page reads it on open
 * and on each status change), so that a leaked link cannot flood the node.
 */
const readsPerIp: RateLimitRule = { name: 'checkout-read-ip', limit: 60, windowSeconds: 60 };
const readsPerCheckout: RateLimitRule = { name: 'checkout-read', limit: 120, windowSeconds: 60 };
const streamsPerCheckout: RateLimitRule = { name: 'checkout-events', limit: 60, windowSeconds: 60 };

/** Statuses only move forward; a late payment moves an expired checkout to paid. */
const statusRank = { awaiting_payment: 0, processing: 1, expired: 2, paid: 3 } as const;

/**
 * The hosted checkout page's calls. A checkout's id is a random UUID its merchant shares, so
 * they need no session.
 */
export function registerCheckoutRoutes(
  app: App,
  deps: InvoiceDeps & { checkoutEvents: CheckoutEventHub } & RateLimitDeps,
): void {
  app.get(
    '/api/public/checkouts/:id',
    { schema: { tags: ['checkouts'], params: IdParamsSchema, response: { 200: PublicCheckoutSchema } } },
    async (request, reply) => {
      await enforceRateLimit(deps, reply, readsPerIp, clientOf(request));
      await enforceRateLimit(deps, reply, readsPerCheckout, request.params.id);
      return getPublicCheckout(deps, request.params.id);
    },
  );

  app.get(
    '/api/public/checkouts/:id/events',
    {
      schema: {
        tags: ['checkouts'],
        params: IdParamsSchema,
        description:
          'Server-Sent Events: `status` events with `{id, status}` (awaiting_payment, processing, paid, expired).',
      },
    },
    async (request, reply) => {
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
      };
      const reread = () =>
        getCheckoutStatus(deps.db, id).then(publish, (error: unknown) =>
          request.log.warn({ err: error }, 'could not read checkout status'),
        );
      stream.onClose(deps.checkoutEvents.subscribe(id, (status) => (status ? publish(status) : reread())));
      await reread();
    },
  );
}
