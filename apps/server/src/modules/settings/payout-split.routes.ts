import { callerOf } from '../../http/access.ts';
import type { App } from '../../http/app-type.ts';
import { registerCall } from '../../http/contract.ts';
import { requireMfaCode } from '../../http/mfa-code.ts';
import type { RateLimitDeps } from '../../http/rate-limit.ts';
import type { MfaDeps } from '../mfa/mfa-codes.ts';
import { getPayoutSplit, type PayoutSplitDeps, setPayoutSplit } from './payout-split.service.ts';

export function registerPayoutSplitRoutes(app: App, deps: PayoutSplitDeps & MfaDeps & RateLimitDeps): void {
  registerCall(app, 'GET /api/settings/payout-split', async (request) => getPayoutSplit(deps, callerOf(request)));

  registerCall(
    app,
    'PUT /api/settings/payout-split',
    async (request) => setPayoutSplit(callerOf(request), deps, request.body),
    { preHandler: [requireMfaCode(deps)] },
  );
}
