import { callerOf } from '../../http/access.ts';
import type { App } from '../../http/app-type.ts';
import { registerCall } from '../../http/contract.ts';
import { requireMfaCode } from '../../http/mfa-code.ts';
import type { RateLimitDeps } from '../../http/rate-limit.ts';
import type { MfaDeps } from '../mfa/mfa-codes.ts';
import { getCheckoutProtection, setCheckoutProtection } from './checkout-protection.service.ts';

export function registerCheckoutProtectionRoutes(app: App, deps: MfaDeps & RateLimitDeps): void {
  registerCall(app, 'GET /api/settings/checkout-protection', async (request) =>
    getCheckoutProtection(deps.db, callerOf(request)),
  );

  registerCall(
    app,
    'PUT /api/settings/checkout-protection',
    async (request) => setCheckoutProtection(callerOf(request), deps.db, request.body),
    { preHandler: [requireMfaCode(deps)] },
  );
}
