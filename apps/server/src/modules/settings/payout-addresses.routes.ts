import { callerOf } from '../../http/access.ts';
import type { App } from '../../http/app-type.ts';
import { registerCall } from '../../http/contract.ts';
import { requireMfaCode } from '../../http/mfa-code.ts';
import type { RateLimitDeps } from '../../http/rate-limit.ts';
import type { MfaDeps } from '../mfa/mfa-codes.ts';
import {
  getPayoutAddresses,
  type PayoutAddressDeps,
  setLightningAddress,
  setOnchainAddress,
} from './payout-addresses.service.ts';

export function registerPayoutAddressRoutes(app: App, deps: PayoutAddressDeps & MfaDeps & RateLimitDeps): void {
  registerCall(app, 'GET /api/settings/payout-addresses', async (request) =>
    getPayoutAddresses(deps, callerOf(request)),
  );

  registerCall(
    app,
    'PUT /api/settings/onchain-address',
    async (request) => setOnchainAddress(callerOf(request), deps, request.body, request.log),
    { preHandler: [requireMfaCode(deps)] },
  );

  registerCall(
    app,
    'PUT /api/settings/lightning-address',
    async (request) => setLightningAddress(callerOf(request), deps, request.body, request.log),
    { preHandler: [requireMfaCode(deps)] },
  );
}
