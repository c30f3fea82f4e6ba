import { CheckoutProtectionSchema, MFA_CODE_HEADER } from '@rayo/shared';
import { callerOf } from '../../http/access.ts';
import type { App } from '../../http/app-type.ts';
import { requireMfaCode } from '../../http/mfa-code.ts';
import type { RateLimitDeps } from '../../http/rate-limit.ts';
import type { MfaDeps } from '../mfa/mfa-codes.ts';
import { getCheckoutProtection, setCheckoutProtection } from './checkout-protection.service.ts';

const tags = ['settings'];

export function registerCheckoutProtectionRoutes(app: App, deps: MfaDeps & RateLimitDeps): void {
  app.get(
    '/api/settings/checkout-protection',
    {
      schema: {
        tags,
        summary: 'Whether e-commerce checkouts may only be created server-to-server',
        response: { 200: CheckoutProtectionSchema },
      },
    },
    async (request) => getCheckoutProtection(deps.db, callerOf(request)),
  );

  app.put(
    '/api/settings/checkout-protection',
    {
      preHandler: requireMfaCode(deps),
      schema: {
        tags,
        summary: `Turns checkout protection on or off; with MFA on, needs a code in the ${MFA_CODE_HEADER} header`,
        body: CheckoutProtectionSchema,
        response: { 200: CheckoutProtectionSchema },
      },
    },
    async (request) => setCheckoutProtection(callerOf(request), deps.db, request.body),
  );
}
