import { adminRoles, organizationRoles } from '../roles.ts';
import {
  CreatePublicStoreCheckoutRequestSchema,
  CreateStoreCheckoutRequestSchema,
  StoreCheckoutSchema,
} from '../store-checkouts.ts';
import { defineCalls } from './call.ts';
import { IdParamsSchema } from './common.ts';

const tags = ['checkouts'];
const creationRefusals = [
  'InvalidAmount',
  'InvalidCurrency',
  'OrderIdConflict',
  'CheckoutProtected',
  'OrganizationDisabled',
  'OrganizationBlocked',
  'RateUnavailable',
] as const;

/** The store checkout API (docs/api.md): a store's server acts with its admin's developer token. */
export const storeCheckoutCalls = defineCalls({
  'POST /api/checkouts': {
    operationId: 'createCheckout',
    tags,
    summary: "Creates a store's checkout for an order",
    description:
      "201 for a new checkout, 200 with the same checkout when the order id was already used with the same amount (a retry); another amount for the order is 409 `OrderIdConflict`. With checkout protection on, only a developer token may call it. The buyer pays at the answer's `url`.",
    body: CreateStoreCheckoutRequestSchema,
    answer: StoreCheckoutSchema,
    statuses: [201, 200],
    who: adminRoles,
    scope: { param: 'virtualBptId', within: 'organization', outside: 400 },
    developerScopes: ['checkouts', 'full'],
    refusals: creationRefusals,
  },
  'GET /api/checkouts/:id': {
    operationId: 'getCheckout',
    tags,
    summary: "A store's checkout and its status, for the store's server to poll",
    params: IdParamsSchema,
    answer: StoreCheckoutSchema,
    who: organizationRoles,
    scope: { param: 'id', within: 'linked-accounts' },
    developerScopes: ['checkouts', 'read-only', 'full'],
    refusals: [],
  },
  'POST /api/public/virtual-bpts/:id/checkouts': {
    operationId: 'createPublicCheckout',
    tags,
    summary: "A store's public checkout button",
    description:
      'Creates a checkout without credentials, honoured only while the organization keeps checkout protection off (otherwise 403 `CheckoutProtected`). Limited per address and per store.',
    params: IdParamsSchema,
    body: CreatePublicStoreCheckoutRequestSchema,
    answer: StoreCheckoutSchema,
    statuses: [201, 200],
    who: 'public',
    refusals: ['NotFound', 'TooManyRequests', ...creationRefusals],
  },
});
