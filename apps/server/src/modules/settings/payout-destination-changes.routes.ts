import { CancelDestinationChangeRequestSchema, CancelledDestinationChangeSchema, MFA_CODE_HEADER } from '@rayo/shared';
import { z } from 'zod';
import { callerOf, publicContextOf } from '../../http/access.ts';
import type { App } from '../../http/app-type.ts';
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
  app.post(
    '/api/public/payout-destination-changes/cancel',
    {
      schema: {
        tags: ['settings'],
        summary:
          'Cancels a change of payout destination with the link mailed to every admin: the previous destination comes back',
        body: CancelDestinationChangeRequestSchema,
        response: { 200: CancelledDestinationChangeSchema },
      },
    },
    async (request, reply) => {
      await enforceRateLimit(deps, reply, linkCancels, clientOf(request));
      return cancelDestinationChangeByLink(publicContextOf(request), deps, request.body.token);
    },
  );

  app.post(
    '/api/settings/payout-destination-changes/:id/cancel',
    {
      preHandler: requireMfaCode(deps),
      schema: {
        tags: ['settings'],
        summary: `Cancels a change of payout destination that payouts wait on: the previous destination comes back. With MFA on, a code in the ${MFA_CODE_HEADER} header`,
        params: z.object({ id: z.uuid() }),
        response: { 200: CancelledDestinationChangeSchema },
      },
    },
    async (request) => cancelDestinationChange(callerOf(request), deps, request.params.id),
  );
}
