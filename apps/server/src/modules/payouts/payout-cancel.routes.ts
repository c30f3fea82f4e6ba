import { PayoutPageSchema, PayoutQuerySchema, PayoutSchema } from '@rayo/shared';
import { z } from 'zod';
import type { Config } from '../../config.ts';
import { callerOf } from '../../http/access.ts';
import type { App } from '../../http/app-type.ts';
import { cancelPayout, type PayoutCancelDeps } from './payout-cancel.service.ts';
import { listOrganizationPayoutsForBackOffice } from './payouts.service.ts';

const tags = ['back-office'];

/** Back office's payouts of an organization, and cancelling one that no payment can still complete. */
export function registerPayoutCancelRoutes(app: App, deps: PayoutCancelDeps & { config: Config }): void {
  app.get(
    '/api/back-office/organization/:id/payouts',
    {
      schema: {
        tags,
        summary: "The organization's payouts, newest first, and its fiat share awaiting or done by bank transfer",
        params: z.object({ id: z.uuid() }),
        querystring: PayoutQuerySchema,
        response: { 200: PayoutPageSchema },
      },
    },
    async (request) => listOrganizationPayoutsForBackOffice(deps, request.params.id, request.query),
  );

  app.post(
    '/api/back-office/payouts/:id/cancel',
    {
      schema: {
        tags,
        summary:
          'Cancels a pending or failed Lightning payout whose payment cannot complete any more; its shares are paid again by the next batch. 409 PayoutInFlight while a payment of it may still complete, 409 PayoutNotCancellable once sent or cancelled',
        params: z.object({ id: z.uuid() }),
        response: { 200: PayoutSchema },
      },
    },
    async (request) => cancelPayout(callerOf(request), deps, request.params.id),
  );
}
