import { CheckoutProtectionSchema } from '../checkout-protection.ts';
import { adminRoles, organizationRoles } from '../roles.ts';
import { defineCalls } from './call.ts';
import { mfaRefusals } from './common.ts';

const tags = ['settings'];

/** Checkout protection (DESIGN §9): with it on, only a store's server creates checkouts. */
export const checkoutProtectionCalls = defineCalls({
  'GET /api/settings/checkout-protection': {
    operationId: 'getCheckoutProtection',
    tags,
    summary: 'Whether e-commerce checkouts may only be created server-to-server',
    answer: CheckoutProtectionSchema,
    who: organizationRoles,
    refusals: [],
  },
  'PUT /api/settings/checkout-protection': {
    operationId: 'setCheckoutProtection',
    tags,
    summary: 'Turns checkout protection on or off',
    description:
      'With it on, `POST /api/checkouts` takes only a developer token and the public checkout button is refused. With MFA on, needs a code in the `mfa-code` header.',
    body: CheckoutProtectionSchema,
    answer: CheckoutProtectionSchema,
    who: adminRoles,
    refusals: mfaRefusals,
  },
});
