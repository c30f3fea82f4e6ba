import { callerOf } from '../../http/access.ts';
import type { App } from '../../http/app-type.ts';
import { registerCall } from '../../http/contract.ts';
import { clientOf, enforceSharedLimit, type RateLimitDeps } from '../../http/rate-limit.ts';
import { donationInvoices } from './donation-limits.ts';
import {
  createDonationInvoice,
  createDonationLink,
  type DonationDeps,
  deleteDonationLink,
  findDonationLinkToPay,
  getDonationAddress,
  getPublicDonationLink,
  listDonationLinks,
  listDonations,
  removeDonationAddress,
  setDonationAddress,
} from './donations.service.ts';

/** Donation links, their history and the Lightning address (Integrations), and the public donation page. */
export function registerDonationRoutes(app: App, deps: DonationDeps & RateLimitDeps): void {
  registerCall(app, 'GET /api/donation-links', async (request) => listDonationLinks(deps, callerOf(request)));

  registerCall(app, 'POST /api/donation-links', async (request) =>
    createDonationLink(deps, callerOf(request), request.body),
  );

  registerCall(app, 'DELETE /api/donation-links/:id', async (request) =>
    deleteDonationLink(deps, callerOf(request), request.params.id),
  );

  registerCall(app, 'GET /api/donations', async (request) => listDonations(deps, callerOf(request), request.query));

  registerCall(app, 'GET /api/donations/lightning-address', async (request) =>
    getDonationAddress(deps, callerOf(request)),
  );

  registerCall(app, 'PUT /api/donations/lightning-address', async (request) =>
    setDonationAddress(deps, callerOf(request), request.body),
  );

  registerCall(app, 'DELETE /api/donations/lightning-address', async (request) =>
    removeDonationAddress(deps, callerOf(request)),
  );

  registerCall(app, 'GET /api/public/donation-links/:id', async (request) =>
    getPublicDonationLink(deps, await findDonationLinkToPay(deps, request.params.id)),
  );

  registerCall(app, 'POST /api/public/donation-links/:id/invoices', async (request, reply) => {
    const target = await findDonationLinkToPay(deps, request.params.id);
    await enforceSharedLimit(deps, reply, donationInvoices, target.link.id, clientOf(request));
    return createDonationInvoice(deps, target, request.body);
  });
}
