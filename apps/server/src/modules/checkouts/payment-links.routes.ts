import { callerOf } from '../../http/access.ts';
import type { App } from '../../http/app-type.ts';
import { registerCall } from '../../http/contract.ts';
import type { InvoiceDeps } from '../invoices/invoices.service.ts';
import {
  createPaymentLink,
  deletePaymentLink,
  listAccountPaymentLinks,
  listPaymentLinks,
} from './payment-links.service.ts';

export function registerPaymentLinkRoutes(app: App, deps: Pick<InvoiceDeps, 'db' | 'config'>): void {
  const { db } = deps;

  registerCall(app, 'GET /api/virtual-bpts/:id/payment-links', async (request) =>
    listPaymentLinks(db, callerOf(request), request.params.id),
  );

  registerCall(app, 'POST /api/virtual-bpts/:id/payment-links', async (request) =>
    createPaymentLink(deps, callerOf(request), request.params.id, request.body),
  );

  registerCall(app, 'DELETE /api/payment-links/:id', async (request) =>
    deletePaymentLink(db, callerOf(request), request.params.id),
  );

  registerCall(app, 'GET /api/accounts/:id/payment-links', async (request) =>
    listAccountPaymentLinks(db, callerOf(request), request.params.id),
  );
}
