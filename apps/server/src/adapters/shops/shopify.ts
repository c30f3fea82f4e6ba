import { SafeFetchError, sendJsonSafely } from '../lnurl/safe-fetch.ts';

/**
 * The few Shopify Admin GraphQL calls Rayo makes for a store connected with a custom app's access
 * token (reference/ecommerce.md §2.2, route B): the shop's name to check the token, an order's
 * outstanding amount, and `orderMarkAsPaid`. Requests go through the SSRF-safe fetch, since the
 * host comes from the merchant's store domain.
 */

export type ShopifyApi = {
  /** `SHOPIFY_API_URL`: `{shop}` is replaced by the `*.myshopify.com` domain. */
  apiUrl: string;
  allowPrivateAddresses: boolean;
};

export type ShopifyFailure = 'unauthorized' | 'unreachable' | 'invalid' | 'refused';

/** A call that did not go through; `message` is ours or Shopify's and safe to log, never a token. */
export class ShopifyError extends Error {
  readonly failure: ShopifyFailure;
  constructor(failure: ShopifyFailure, message: string) {
    super(message);
    this.failure = failure;
  }
}

const TIMEOUT_MS = 10_000;
const ORDER_GID_PREFIX = 'gid://shopify/Order/';

/** An order's GraphQL id from what a link carries: the numeric id or the GID; undefined otherwise. */
export function shopifyOrderGid(order: string): string | undefined {
  const text = order.trim();
  if (/^\d{1,20}$/.test(text)) return `${ORDER_GID_PREFIX}${text}`;
  if (text.startsWith(ORDER_GID_PREFIX) && /^\d{1,20}$/.test(text.slice(ORDER_GID_PREFIX.length))) return text;
  return undefined;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

async function graphql(
  api: ShopifyApi,
  shop: string,
  accessToken: string,
  query: string,
  variables: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const url = new URL(api.apiUrl.replaceAll('{shop}', shop));
  let result: { status: number; answer: unknown };
  try {
    result = await sendJsonSafely(
      url,
      {
        method: 'POST',
        body: JSON.stringify({ query, variables }),
        headers: { 'x-shopify-access-token': accessToken, 'user-agent': 'Rayo' },
      },
      { signal: AbortSignal.timeout(TIMEOUT_MS), allowPrivateAddresses: api.allowPrivateAddresses },
    );
  } catch (error) {
    if (!(error instanceof SafeFetchError)) throw error;
    throw new ShopifyError('unreachable', `Shopify did not answer (${error.failure})`);
  }
  const { status, answer } = result;
  if (status === 401 || status === 403)
    throw new ShopifyError('unauthorized', `Shopify refused the token (HTTP ${status})`);
  if (status < 200 || status >= 300) throw new ShopifyError('unreachable', `Shopify answered HTTP ${status}`);
  if (!isObject(answer)) throw new ShopifyError('invalid', 'Shopify answered something other than JSON');
  if (Array.isArray(answer.errors) && answer.errors.length > 0) {
    const first = answer.errors[0];
    const message = isObject(first) && typeof first.message === 'string' ? first.message : 'GraphQL error';
    throw new ShopifyError('invalid', `Shopify: ${message.slice(0, 200)}`);
  }
  if (!isObject(answer.data)) throw new ShopifyError('invalid', 'Shopify answered without data');
  return answer.data;
}

/** The store's name and currency: a call that proves the domain and the token belong together. */
export async function fetchShopifyShop(
  api: ShopifyApi,
  shop: string,
  accessToken: string,
): Promise<{ name: string; currencyCode: string }> {
  const data = await graphql(api, shop, accessToken, 'query RayoShop { shop { name currencyCode } }', {});
  if (!isObject(data.shop) || typeof data.shop.name !== 'string' || typeof data.shop.currencyCode !== 'string') {
    throw new ShopifyError('invalid', 'Shopify answered without the shop name');
  }
  return { name: data.shop.name, currencyCode: data.shop.currencyCode };
}

export type ShopifyOrder = {
  id: string;
  /** The order's name as the shopper knows it, e.g. `#1001`. */
  name: string;
  displayFinancialStatus: string | null;
  statusPageUrl: string | null;
  /** What is left to pay, in the shop's currency, as Shopify's decimal text. */
  outstanding: { amount: string; currencyCode: string };
};

const ORDER_QUERY = `query RayoOrder($id: ID!) {
  order(id: $id) {
    id
    name
    displayFinancialStatus
    statusPageUrl
    totalOutstandingSet { shopMoney { amount currencyCode } }
  }
}`;

/** The order, or undefined when the store has none with that id. */
export async function fetchShopifyOrder(
  api: ShopifyApi,
  shop: string,
  accessToken: string,
  orderGid: string,
): Promise<ShopifyOrder | undefined> {
  const data = await graphql(api, shop, accessToken, ORDER_QUERY, { id: orderGid });
  const order = data.order;
  if (order === null || order === undefined) return undefined;
  const money = isObject(order) && isObject(order.totalOutstandingSet) ? order.totalOutstandingSet.shopMoney : null;
  if (
    !isObject(order) ||
    typeof order.id !== 'string' ||
    typeof order.name !== 'string' ||
    !isObject(money) ||
    typeof money.amount !== 'string' ||
    typeof money.currencyCode !== 'string'
  ) {
    throw new ShopifyError('invalid', 'Shopify answered an order without its outstanding amount');
  }
  return {
    id: order.id,
    name: order.name,
    displayFinancialStatus: typeof order.displayFinancialStatus === 'string' ? order.displayFinancialStatus : null,
    statusPageUrl: typeof order.statusPageUrl === 'string' ? order.statusPageUrl : null,
    outstanding: { amount: money.amount, currencyCode: money.currencyCode },
  };
}

const MARK_PAID_MUTATION = `mutation RayoOrderMarkAsPaid($input: OrderMarkAsPaidInput!) {
  orderMarkAsPaid(input: $input) {
    order { id displayFinancialStatus }
    userErrors { field message }
  }
}`;

/** Marks the order paid for its whole outstanding amount; Shopify's userErrors become a `refused` error. */
export async function markShopifyOrderPaid(
  api: ShopifyApi,
  shop: string,
  accessToken: string,
  orderGid: string,
): Promise<void> {
  const data = await graphql(api, shop, accessToken, MARK_PAID_MUTATION, { input: { id: orderGid } });
  const result = data.orderMarkAsPaid;
  if (!isObject(result)) throw new ShopifyError('invalid', 'Shopify answered without orderMarkAsPaid');
  const userErrors = Array.isArray(result.userErrors) ? result.userErrors : [];
  if (userErrors.length > 0) {
    const messages = userErrors.map((error) => (isObject(error) ? String(error.message) : 'error')).join('; ');
    throw new ShopifyError('refused', `Shopify refused orderMarkAsPaid: ${messages.slice(0, 200)}`);
  }
}

/** The webhooks Rayo acts on (modules/shops/shopify-webhooks.service.ts), as GraphQL topic enums. */
export const SHOPIFY_WEBHOOK_TOPICS = ['ORDERS_CANCELLED', 'ORDERS_PAID', 'APP_UNINSTALLED'] as const;

const SUBSCRIBE_MUTATION = `mutation RayoWebhookSubscribe($topic: WebhookSubscriptionTopic!, $webhookSubscription: WebhookSubscriptionInput!) {
  webhookSubscriptionCreate(topic: $topic, webhookSubscription: $webhookSubscription) {
    webhookSubscription { id }
    userErrors { field message }
  }
}`;

/**
 * Subscribes the store's app to Rayo's webhook address for each topic. Subscriptions made through
 * the app's own token are signed with the app's API secret key (those made in the store's
 * Notifications settings are not). A topic already subscribed to this address ("has already
 * been taken") counts as done, so connecting again is harmless.
 */
export async function subscribeShopifyWebhooks(
  api: ShopifyApi,
  shop: string,
  accessToken: string,
  callbackUrl: string,
): Promise<void> {
  for (const topic of SHOPIFY_WEBHOOK_TOPICS) {
    const data = await graphql(api, shop, accessToken, SUBSCRIBE_MUTATION, {
      topic,
      webhookSubscription: { callbackUrl, format: 'JSON' },
    });
    const result = data.webhookSubscriptionCreate;
    if (!isObject(result)) throw new ShopifyError('invalid', 'Shopify answered without webhookSubscriptionCreate');
    const messages = (Array.isArray(result.userErrors) ? result.userErrors : [])
      .map((error) => (isObject(error) ? String(error.message) : 'error'))
      .filter((message) => !/already been taken/i.test(message));
    if (messages.length > 0) {
      throw new ShopifyError('refused', `Shopify refused the ${topic} webhook: ${messages.join('; ').slice(0, 200)}`);
    }
  }
}
