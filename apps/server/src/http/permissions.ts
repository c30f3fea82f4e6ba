import type { DeveloperTokenScope } from '@rayo/shared';
import { type Call, contract, type Permission, person } from '@rayo/shared/contract';

export type { Permission, Scope } from '@rayo/shared/contract';

/**
 * Who may call every API route: the one table the access hook in `access.ts` consults (DESIGN §6).
 *
 * A call of the shared route contract (`@rayo/shared/contract`, docs/architecture.md "Route
 * contract") carries its own line: `who`, `scope`, `userCheckedOnWrite` and `developerScopes`
 * there mean what they mean here, and the table below takes them from it. The routes the
 * contract does not describe (uploaded files, uploads, redirects, LNURL answers, Shopify's webhooks) keep
 * a hand-written line in `handWrittenPermissions`, keyed
 * `'METHOD /api/path/:param'` exactly as the route is registered; `permissions.test.ts` calls
 * every registered route as every kind of caller and fails on a route missing from the table or
 * a line without a route, and a route missing here answers 403 to everyone. Routes outside
 * `/api`, and the API documentation, are public without a line.
 *
 * - `who`: `'public'` (no token; the route checks any credential it takes, such as a share
 *   token, itself), `'signed-in'` (any valid access token), or the roles that may call it.
 *   Managers only read (SPEC §6), so no write lists them. Routes for the organization's roles
 *   work inside the caller's organization: an admin who signed up and has not onboarded yet
 *   has none, and is answered 409 `OnboardingRequired`.
 * - `scope`: what the service checks beyond the role, for the resource a parameter names:
 *   `organization` (the caller's own) or `linked-accounts` (and, for a manager, on an account
 *   linked to them); or `no-organization` for onboarding, which only a caller without one may
 *   do. Outside its scope a resource answers 404, as if it did not exist, so other
 *   organizations' ids cannot be probed; `outside` names the routes that answer otherwise.
 */
const anyone = { who: 'public' } as const;

/** The lines of the routes outside the shared contract, each listed with its reason in contract.test.ts. */
export const handWrittenPermissions: Readonly<Record<string, Permission>> = {
  // A donation link's random id is its public address; wallets call LNURL-pay without a session.
  'GET /api/lnurlp/:id': anyone,
  // A refund link's k1 is 256 random bits handed only to the customer being refunded.
  'GET /api/lnurlw/refunds/:k1': anyone,
  'GET /api/lnurlw/refunds/:k1/callback': anyone,
  'GET /api/lnurlp/:id/callback': anyone,
  'GET /api/lnurlp/addresses/:name/callback': anyone,

  // Shops (docs/integrations.md): the shopper's entries and Shopify's webhooks are public,
  // priced only from what the store says.
  'GET /api/public/shopify/pay': anyone,
  'POST /api/public/shopify/webhooks': anyone,
  'POST /api/ecwid/payment': anyone,

  // The devnet wallet's Bolt Card service, registered only with the devnet Lightning backend.
  'GET /api/devnet/lnurlw/:k1': anyone,
  'GET /api/devnet/lnurlw/:k1/callback': anyone,
};

/** A contract call's line: its permission fields, nothing else. */
function permissionOfCall({ who, scope, userCheckedOnWrite, developerScopes }: Call): Permission {
  return {
    who,
    ...(scope && { scope }),
    ...(userCheckedOnWrite && { userCheckedOnWrite }),
    ...(developerScopes && { developerScopes }),
  };
}

export const permissions: Readonly<Record<string, Permission>> = {
  ...handWrittenPermissions,
  ...Object.fromEntries(Object.entries(contract).map(([key, call]) => [key, permissionOfCall(call)])),
};

/**
 * The developer-token scopes that may call a route (docs/security.md "Developer tokens"): the
 * line's own list, else reads for `read-only` and `full` and writes for `full` only, except what
 * a person does on their own account (signed-in writes: password, MFA, language) and back
 * office's decisions, which no token makes. `checkouts` reaches only the lines that name it.
 */
export function developerScopesOf(method: string, permission: Permission): readonly DeveloperTokenScope[] {
  if (permission.developerScopes) return permission.developerScopes;
  if (method === 'GET' || method === 'HEAD') return ['read-only', 'full'];
  const ownAccountOrBackOffice =
    permission.who === 'signed-in' || (permission.who !== 'public' && permission.who.includes('back_office'));
  return ownAccountOrBackOffice ? person : ['full'];
}

/** The table's line for a route; HEAD routes are the GET routes Fastify adds, with the same line. */
export function permissionOf(method: string, url: string): Permission | undefined {
  const key = `${method === 'HEAD' ? 'GET' : method} ${url}`;
  return Object.hasOwn(permissions, key) ? permissions[key] : undefined;
}
