import type { Config } from '../../config.ts';
import { callerOf } from '../../http/access.ts';
import type { App } from '../../http/app-type.ts';
import { registerCall } from '../../http/contract.ts';
import { cancelPayout, type PayoutCancelDeps } from './payout-cancel.service.ts';
import { listOrganizationPayoutsForBackOffice } from './payouts.service.ts';

/** Back office's payouts of an organization, and cancelling one that no payment can still complete. */
export function registerPayoutCancelRoutes(app: App, deps: PayoutCancelDeps & { config: Config }): void {
  registerCall(app, 'GET /api/back-office/organization/:id/payouts', async (request) =>
    listOrganizationPayoutsForBackOffice(deps, request.params.id, request.query),
  );

  registerCall(app, 'POST /api/back-office/payouts/:id/cancel', async (request) =>
    cancelPayout(callerOf(request), deps, request.params.id),
  );
}
