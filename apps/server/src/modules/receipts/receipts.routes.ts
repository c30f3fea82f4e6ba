import type { App } from '../../http/app-type.ts';
import { registerCall } from '../../http/contract.ts';
import { clientOf, enforceRateLimit, type RateLimitDeps, type RateLimitRule } from '../../http/rate-limit.ts';
import { sha256Hex } from '../auth/tokens.ts';
import {
  emailReceipt,
  getInvoiceReceiptLink,
  getReceipt,
  type ReceiptDeps,
  renderReceiptPdf,
} from './receipts.service.ts';

/** A receipt is a public page: each address reads a budget of them, as checkout pages are read. */
const readsPerIp: RateLimitRule = { name: 'receipt-read-ip', limit: 60, windowSeconds: 60 };
/** A PDF costs more to write than a page to read. */
const pdfsPerIp: RateLimitRule = { name: 'receipt-pdf-ip', limit: 20, windowSeconds: 60 };
/**
 * Mail goes to an address anyone may type, so a receipt link must not become a way to flood a
 * mailbox or our sender's standing: few mails per address and per receipt an hour. Each receipt
 * is a paid sale, so the client's budget only bounds the total; it is wide because a busy
 * counter's terminal mails every customer's receipt from one address.
 */
const mailsPerIp: RateLimitRule = { name: 'receipt-mail-ip', limit: 120, windowSeconds: 60 * 60 };
const mailsPerReceipt: RateLimitRule = { name: 'receipt-mail-receipt', limit: 5, windowSeconds: 60 * 60 };
const mailsPerAddress: RateLimitRule = { name: 'receipt-mail-address', limit: 5, windowSeconds: 60 * 60 };

export function registerReceiptRoutes(app: App, deps: ReceiptDeps & RateLimitDeps): void {
  registerCall(app, 'GET /api/invoices/:id/receipt', async (request, reply) => {
    await enforceRateLimit(deps, reply, readsPerIp, clientOf(request));
    return getInvoiceReceiptLink(deps.db, request.params.id);
  });

  registerCall(app, 'GET /api/public/receipts/:token', async (request, reply) => {
    await enforceRateLimit(deps, reply, readsPerIp, clientOf(request));
    return getReceipt(deps.db, request.params.token);
  });

  registerCall(app, 'GET /api/public/receipts/:token/pdf', async (request, reply) => {
    await enforceRateLimit(deps, reply, pdfsPerIp, clientOf(request));
    const { pdf, fileName } = await renderReceiptPdf(deps, request.params.token, request.query.language);
    return reply
      .header('content-type', 'application/pdf')
      .header('content-disposition', `inline; filename="${fileName}"`)
      .header('cache-control', 'private, max-age=300')
      .send(pdf);
  });

  registerCall(app, 'POST /api/public/receipts/:token/email', async (request, reply) => {
    const { token } = request.params;
    await enforceRateLimit(deps, reply, mailsPerIp, clientOf(request));
    await enforceRateLimit(deps, reply, mailsPerReceipt, sha256Hex(token));
    // Counted by a hash, so the limit's table does not keep the address either.
    await enforceRateLimit(deps, reply, mailsPerAddress, sha256Hex(request.body.email.toLowerCase()));
    await emailReceipt(deps, token, request.body);
  });
}
