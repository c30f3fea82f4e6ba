import { callerOf, callerToRecheckOf } from '../../http/access.ts';
import type { App } from '../../http/app-type.ts';
import { registerCall } from '../../http/contract.ts';
import { clientOf, enforceSharedLimit, type RateLimitDeps, type SharedLimitRule } from '../../http/rate-limit.ts';
import { createInvoiceForBpt, createInvoiceForCallerBpt, type InvoiceDeps } from '../invoices/invoices.service.ts';
import { listLatestTransactionsOfBpt } from '../transactions/transactions.service.ts';
import {
  createBpt,
  deleteBpt,
  findCallerBpt,
  findSharedBpt,
  getTerminalInfo,
  listBpts,
  listSharedTerminalSales,
  rotateShareToken,
  updateBpt,
} from './bpts.service.ts';

/**
 * A shareable terminal charges without a session. Each caller gets a budget on each link (a
 * cashier charges every few seconds at most), and each link one in all, so that neither one
 * address nor many can flood the node with invoices through a link that leaked; once addresses
 * have spent the link's budget, the cashier still charges within a fair share of it. A signed-in
 * cashier charges through `/api/bpts/:id/invoices`, which none of this counts.
 */
const sharedInvoices: SharedLimitRule = {
  name: 'terminal-invoices',
  perCaller: 30,
  perLink: 120,
  guaranteed: 6,
  windowSeconds: 60,
};

export function registerBptRoutes(app: App, deps: InvoiceDeps & RateLimitDeps): void {
  const { db } = deps;

  registerCall(app, 'GET /api/bpts', async (request) => listBpts(db, callerOf(request)));

  registerCall(app, 'POST /api/bpts', async (request) => createBpt(db, callerOf(request), request.body));

  registerCall(app, 'PATCH /api/bpts/:id', async (request) =>
    updateBpt(db, callerOf(request), request.params.id, request.body),
  );

  registerCall(app, 'DELETE /api/bpts/:id', async (request) => deleteBpt(db, callerOf(request), request.params.id));

  registerCall(app, 'POST /api/bpts/:id/share-token', async (request) =>
    rotateShareToken(db, callerOf(request), request.params.id),
  );

  registerCall(app, 'GET /api/bpts/:id/terminal', async (request) =>
    getTerminalInfo(deps, await findCallerBpt(db, callerOf(request), request.params.id)),
  );

  registerCall(app, 'POST /api/bpts/:id/invoices', async (request) =>
    createInvoiceForCallerBpt(deps, callerToRecheckOf(request), request.params.id, request.body),
  );

  registerCall(app, 'GET /api/bpts/:id/transactions', async (request) => {
    const bpt = await findCallerBpt(db, callerOf(request), request.params.id);
    return listLatestTransactionsOfBpt(db, bpt.id, request.query.limit);
  });

  registerCall(app, 'GET /api/terminal/:token', async (request) =>
    getTerminalInfo(deps, await findSharedBpt(db, request.params.token)),
  );

  registerCall(app, 'POST /api/terminal/:token/invoices', async (request, reply) => {
    const bpt = await findSharedBpt(db, request.params.token);
    await enforceSharedLimit(deps, reply, sharedInvoices, bpt.id, clientOf(request));
    return createInvoiceForBpt(deps, bpt, request.body);
  });

  registerCall(app, 'GET /api/terminal/:token/transactions', async (request) =>
    listSharedTerminalSales(deps, request.params.token, request.query.limit),
  );
}
