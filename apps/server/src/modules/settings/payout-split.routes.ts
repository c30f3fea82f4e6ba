import { MFA_CODE_HEADER, PayoutSplitRequestSchema, PayoutSplitSettingsSchema } from '@rayo/shared';
import { callerOf } from '../../http/access.ts';
import type { App } from '../../http/app-type.ts';
import { requireMfaCode } from '../../http/mfa-code.ts';
import type { RateLimitDeps } from '../../http/rate-limit.ts';
import type { MfaDeps } from '../mfa/mfa-codes.ts';
import { getPayoutSplit, type PayoutSplitDeps, setPayoutSplit } from './payout-split.service.ts';

const tags = ['settings'];

export function registerPayoutSplitRoutes(app: App, deps: PayoutSplitDeps & MfaDeps & RateLimitDeps): void {
  app.get(
    '/api/settings/payout-split',
    {
      schema: {
        tags,
        summary: "The organization's payout split, the conversion fee and which fields back office has verified",
        response: { 200: PayoutSplitSettingsSchema },
      },
    },
    async (request) => getPayoutSplit(deps, callerOf(request)),
  );

  app.put(
    '/api/settings/payout-split',
    {
      preHandler: requireMfaCode(deps),
      schema: {
        tags,
        summary: `Sets the payout split for the sales settled from now on; needs every field verified (SplitNeedsValidation otherwise) and, with MFA on, a code in the ${MFA_CODE_HEADER} header`,
        body: PayoutSplitRequestSchema,
        response: { 200: PayoutSplitSettingsSchema },
      },
    },
    async (request) => setPayoutSplit(callerOf(request), deps, request.body),
  );
}
