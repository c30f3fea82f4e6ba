import { InvoiceSchema, LnurlWithdrawRequestSchema } from '../payments.ts';
import { defineCalls } from './call.ts';
import { IdParamsSchema } from './common.ts';

const tags = ['invoices'];

/**
 * An invoice's id is a random UUID handed only to whoever created it, so reading its status and
 * paying it need no session: the terminal, the shareable terminal and checkout pages use these.
 */
export const invoiceCalls = defineCalls({
  'GET /api/invoices/:id': {
    operationId: 'getInvoice',
    tags,
    summary: 'An invoice: its amounts, payment request and status',
    params: IdParamsSchema,
    answer: InvoiceSchema,
    who: 'public',
    refusals: ['NotFound'],
  },
  'GET /api/invoices/:id/events': {
    operationId: 'followInvoice',
    tags,
    summary: "An invoice's status changes, as Server-Sent Events",
    description:
      'Server-Sent Events: `status` events with `{id, status}` (pending, settled, expired, cancelled). The stream ends once the invoice is settled or cancelled, or a grace period after it expired. Open streams are limited per address and in all.',
    params: IdParamsSchema,
    streams: 'text/event-stream',
    who: 'public',
    refusals: ['NotFound', 'TooManyRequests', 'ServiceUnavailable'],
  },
  'POST /api/invoices/:id/lnurl-withdraw': {
    operationId: 'payInvoiceWithLnurlWithdraw',
    tags,
    summary: "Pays a pending invoice from an LNURL-withdraw link, such as a Bolt Card's (LUD-03)",
    description:
      "Rayo asks the link's service to pay the invoice and answers the invoice; its settlement arrives as for any payment. Calls are limited per address and per invoice, and in flight per address and in all.",
    params: IdParamsSchema,
    body: LnurlWithdrawRequestSchema,
    answer: InvoiceSchema,
    who: 'public',
    refusals: ['NotFound', 'InvoiceNotPending', 'InvalidLnurlWithdraw', 'TooManyRequests', 'ServiceUnavailable'],
  },
});
