import { callerOf } from '../../http/access.ts';
import type { App } from '../../http/app-type.ts';
import { registerCall } from '../../http/contract.ts';
import { enforceRateLimit, type RateLimitDeps, type RateLimitRule } from '../../http/rate-limit.ts';
import type { TokenIssuer } from '../auth/tokens.ts';
import type { MfaDeps } from '../mfa/mfa-codes.ts';
import { registerBankingInfoRoutes } from './banking-info.routes.ts';
import { registerPayoutAddressRoutes } from './payout-addresses.routes.ts';
import type { PayoutAddressDeps } from './payout-addresses.service.ts';
import { registerPayoutDestinationChangeRoutes } from './payout-destination-changes.routes.ts';
import { registerPayoutSplitRoutes } from './payout-split.routes.ts';
import type { PayoutSplitDeps } from './payout-split.service.ts';
import { changePassword } from './settings.service.ts';

/** Per user, so a stolen access token cannot be used to guess the password behind it. */
const passwordAttempts: RateLimitRule = { name: 'password-change-user', limit: 10, windowSeconds: 15 * 60 };

export function registerSettingsRoutes(
  app: App,
  deps: RateLimitDeps & PayoutSplitDeps & PayoutAddressDeps & MfaDeps & { tokens: TokenIssuer },
): void {
  registerPayoutSplitRoutes(app, deps);
  registerBankingInfoRoutes(app, deps);
  registerPayoutAddressRoutes(app, deps);
  registerPayoutDestinationChangeRoutes(app, deps);

  registerCall(app, 'POST /api/settings/password', async (request, reply) => {
    const caller = callerOf(request);
    await enforceRateLimit(deps, reply, passwordAttempts, caller.userId);
    return changePassword(caller, deps, request.body);
  });
}
