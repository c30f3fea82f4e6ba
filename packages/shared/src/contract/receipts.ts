import { z } from 'zod';
import {
  EmailReceiptRequestSchema,
  ReceiptLanguageQuerySchema,
  ReceiptLinkSchema,
  ReceiptSchema,
} from '../receipts.ts';
import { defineCalls } from './call.ts';
import { IdParamsSchema } from './common.ts';

const tags = ['receipts'];

/** Any text: a token of the wrong shape is as unknown as a right-shaped one nobody issued (404). */
export const ReceiptTokenParamsSchema = z.object({ token: z.string().max(128) });

/**
 * A paid sale's receipt. Its random token (192 bits) is its link: whoever was handed it may read
 * and mail it, so these calls need no session. Each address reads a budget of receipts.
 */
export const receiptCalls = defineCalls({
  'GET /api/invoices/:id/receipt': {
    operationId: 'getInvoiceReceiptLink',
    tags,
    summary: "The receipt link of a paid invoice's sale (404 while unpaid), for the paid screen",
    description:
      "An invoice's random id is handed only to whoever created it. Answers 404 until the invoice is paid. Reads are limited per address.",
    params: IdParamsSchema,
    answer: ReceiptLinkSchema,
    who: 'public',
    refusals: ['NotFound', 'TooManyRequests'],
  },
  'GET /api/public/receipts/:token': {
    operationId: 'getReceipt',
    tags,
    summary: 'A paid sale’s receipt, by the token of its link',
    description: 'Reads are limited per address; an unknown token answers 404.',
    params: ReceiptTokenParamsSchema,
    answer: ReceiptSchema,
    who: 'public',
    refusals: ['NotFound', 'TooManyRequests'],
  },
  'GET /api/public/receipts/:token/pdf': {
    operationId: 'getReceiptPdf',
    tags,
    summary: 'The receipt as a PDF on an 80 mm roll, in `language` or else the merchant’s',
    description:
      'Shown in the browser (`inline`) and cached privately for 5 minutes. PDFs are limited per address; an unknown token answers 404.',
    params: ReceiptTokenParamsSchema,
    query: ReceiptLanguageQuerySchema,
    file: { mediaType: 'application/pdf', disposition: 'inline' },
    who: 'public',
    refusals: ['NotFound', 'TooManyRequests'],
  },
  'POST /api/public/receipts/:token/email': {
    operationId: 'emailReceipt',
    tags,
    summary: 'Mails the receipt to the address typed on the paid screen; the address is not kept',
    description:
      'The receipt goes with its PDF attached, in `language`. Mails are limited per client address, per receipt and per mailbox; 503 when the mail could not be sent.',
    params: ReceiptTokenParamsSchema,
    body: EmailReceiptRequestSchema,
    who: 'public',
    refusals: ['NotFound', 'TooManyRequests', 'ServiceUnavailable'],
  },
});
