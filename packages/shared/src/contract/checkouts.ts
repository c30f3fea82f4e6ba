import { PublicCheckoutSchema } from '../checkouts.ts';
import { defineCalls } from './call.ts';
import { IdParamsSchema } from './common.ts';

/**
 * The hosted checkout page's calls. A checkout's id is a random UUID its merchant shares (a
 * payment link, a store's order), so they need no session.
 */
export const checkoutCalls = defineCalls({
  'GET /api/public/checkouts/:id': {
    operationId: 'getPublicCheckout',
    tags: ['checkouts'],
    summary: 'A checkout as its hosted page shows it',
    description:
      'Issues a new Lightning invoice when the last one expired and the checkout still takes payments. Reads are limited per address and per checkout.',
    params: IdParamsSchema,
    answer: PublicCheckoutSchema,
    who: 'public',
    refusals: ['NotFound', 'TooManyRequests', 'RateUnavailable', 'LightningUnavailable', 'InvoiceFailed'],
  },
  'GET /api/public/checkouts/:id/events': {
    operationId: 'followPublicCheckout',
    tags: ['checkouts'],
    summary: "A checkout's status changes, as Server-Sent Events",
    description:
      'Server-Sent Events: `status` events with `{id, status}` (awaiting_payment, processing, paid, expired). The stream ends once the checkout is paid, or a grace period after it expired.',
    params: IdParamsSchema,
    streams: 'text/event-stream',
    who: 'public',
    refusals: ['NotFound', 'TooManyRequests'],
  },
});
