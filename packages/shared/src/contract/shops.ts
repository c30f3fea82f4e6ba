import { adminRoles } from '../roles.ts';
import {
  ConnectEcwidRequestSchema,
  ConnectShopifyRequestSchema,
  ShopConnectionSchema,
  ShopConnectionStateSchema,
} from '../shops.ts';
import { defineCalls } from './call.ts';
import { mfaRefusals } from './common.ts';

const tags = ['shops'];

/** The virtual BPT the store sells through must be the organization's: else `InvalidInput`. */
const virtualBptScope = { param: 'virtualBptId', within: 'organization', outside: 400 } as const;

/**
 * Shops (docs/integrations.md): an admin connects the organization's Shopify or Ecwid store,
 * sees it without its secret, and disconnects it. The shopper's entries (the Shopify pay link,
 * Ecwid's payment form) answer redirects and Shopify's webhooks are checked over their raw
 * bytes, so those are registered by hand.
 */
export const shopCalls = defineCalls({
  'GET /api/shops/shopify': {
    operationId: 'getShopifyConnection',
    tags,
    summary: "The organization's connected Shopify store, without its secret",
    answer: ShopConnectionStateSchema,
    who: adminRoles,
    refusals: [],
  },
  'PUT /api/shops/shopify': {
    operationId: 'connectShopify',
    tags,
    summary: "Connects a Shopify store with its custom app's client id and secret, checked with Shopify first",
    description:
      'Shopify must grant the app a token for the store and take its webhook subscriptions (`ShopConnectionFailed` otherwise); the store must sell in the currency of the virtual BPT (`InvalidCurrency`); a store connected to another organization is refused with `ShopTaken`. With MFA on, needs a code in the `mfa-code` header.',
    body: ConnectShopifyRequestSchema,
    answer: ShopConnectionSchema,
    who: adminRoles,
    scope: virtualBptScope,
    refusals: ['ShopConnectionFailed', 'InvalidCurrency', 'ShopTaken', ...mfaRefusals],
  },
  'DELETE /api/shops/shopify': {
    operationId: 'disconnectShopify',
    tags,
    summary: 'Disconnects the Shopify store: its pay links stop opening checkouts',
    who: adminRoles,
    refusals: [],
  },
  'GET /api/shops/ecwid': {
    operationId: 'getEcwidConnection',
    tags,
    summary: "The organization's connected Ecwid store, without its secret",
    answer: ShopConnectionStateSchema,
    who: adminRoles,
    refusals: [],
  },
  'PUT /api/shops/ecwid': {
    operationId: 'connectEcwid',
    tags,
    summary: "Connects an Ecwid store with its payment app's client secret",
    description:
      "Ecwid must answer the store's profile to the app's secret token first (`ShopConnectionFailed` otherwise); a store connected to another organization is refused with `ShopTaken`. With MFA on, needs a code in the `mfa-code` header.",
    body: ConnectEcwidRequestSchema,
    answer: ShopConnectionSchema,
    who: adminRoles,
    scope: virtualBptScope,
    refusals: ['ShopConnectionFailed', 'ShopTaken', ...mfaRefusals],
  },
  'DELETE /api/shops/ecwid': {
    operationId: 'disconnectEcwid',
    tags,
    summary: 'Disconnects the Ecwid store: its payment requests stop opening checkouts',
    who: adminRoles,
    refusals: [],
  },
});
