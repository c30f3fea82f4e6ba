import { PayoutPageSchema, PayoutQuerySchema } from '@rayo/shared';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/database.ts';
import { callerOf } from '../../http/access.ts';
import type { App } from '../../http/app-type.ts';
import { listPayouts } from './payouts.service.ts';

const tags = ['settings'];

export function registerPayoutRoutes(app: App, deps: { db: Db; config: Config }): void {
  app.get(
    '/api/settings/payouts',
    {
      schema: {
        tags,
        summary:
          "The organization's payouts, newest first, its fiat share awaiting or done by bank transfer, and why payouts wait",
        querystring: PayoutQuerySchema,
        response: { 200: PayoutPageSchema },
      },
    },
    async (request) => listPayouts(deps, callerOf(request), request.query),
  );
}
