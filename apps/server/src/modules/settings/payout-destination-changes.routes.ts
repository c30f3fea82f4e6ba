import { callerOf, publicContextOf } from '../../http/access.ts';
import type { App } from '../../http/app-type.ts';
import { registerCall } from '../../http/contract.ts';
import { requireMfaCode } from '../../http/mfa-code.ts';
import { clientOf, enforceRateLimit, type RateLimitDeps, type RateLimitRule } from '../../http/rate-limit.ts';
import type { MfaDeps } from '../mfa/mfa-codes.ts';
import {
  cancelDestinationChange,
  cancelDestinationChangeByLink,
  type DestinationCancelDeps,
} from './payout-destination-changes.service.ts';

/** The link's secret is 256 random bits; the limit keeps the public call from being a load. */
const linkCancels: RateLimitRule = { name: 'destination-cancel-ip', limit: 20, windowSeconds: 15 * 60 };

/** Cancelling a change of payout destination: from the mailed link, or by an admin in Settings. */
export function registerPayoutDestinationChangeRoutes(
  app: App,
  deps: DestinationCancelDeps & MfaDeps & RateLimitDeps,
): void {
  registerCall(app, 'POST /api/public/payout-destination-changes/cancel', async (request, reply) => {
    await enforceRateLimit(deps, reply, linkCancels, clientOf(request));
    return cancelDestinationChangeByLink(publicContextOf(request), deps, request.body.token);
  });

  registerCall(
    app,
    'POST /api/settings/payout-destination-changes/:id/cancel',
    async (request) => cancelDestinationChange(callerOf(request), deps, request.params.id),
    { preHandler: [requireMfaCode(deps)] },
  );
}
