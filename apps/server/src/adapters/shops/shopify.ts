import { SafeFetchError, sendJsonSafely } from '../lnurl/safe-fetch.ts';

/**
 * The Shopify calls Rayo makes for a store connected through a Dev Dashboard app: minting an
 * Admin API access token with the client credentials grant, and a few Admin GraphQL calls (the
 * shop's name, an order's outstanding amount, `orderMarkAsPaid`, webhook subscriptions).
 * Requests go through the SSRF-safe fetch, since the host comes from the merchant's store domain.
 */

/**
 * The Admin API version every GraphQL call names. Shopify supports a version for twelve months
 * after its release; this is the one place to move it forward.
 */
export const SHOPIFY_API_VERSION = '2026-10';

export type ShopifyApi = {
  /** `SHOPIFY_SHOP_URL`: the store's origin, `{shop}` being replaced by the `*.myshopify.com` domain. */
  shopUrl: string;
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

function shopOrigin(api: ShopifyApi, shop: string): string {
  return api.shopUrl.replaceAll('{shop}', shop).replace(/\/+$/, '');
}

async function send(
  api: ShopifyApi,
  url: URL,
  body: unknown,
  headers: Record<string, string>,
): Promise<{ status: number; answer: unknown }> {
  try {
    return await sendJsonSafely(
      url,
      { method: 'POST', body: JSON.stringify(body), headers: { 'user-agent': 'Rayo', ...headers } },
      { signal: AbortSignal.timeout(TIMEOUT_MS), allowPrivateAddresses: api.allowPrivateAddresses },
    );
  } catch (error) {
    if (!(error instanceof SafeFetchError)) throw error;
    throw new ShopifyError('unreachable', `Shopify did not answer (${error.failure})`);
  }
}

export type ShopifyCredentials = { clientId: string; clientSecret: string };
export type ShopifyAccessToken = { accessToken: string; expiresAt: Date };

/**
 * An Admin API access token for the store, minted with the app's client id and secret (the
 * client credentials grant: `POST /admin/oauth/access_token`). Shopify answers the token, its
 * scopes and `expires_in` (about 24 hours). A refusal (the app is not installed on this store, or
 * the id and secret are not this app's) is `unauthorized`, with Shopify's error code when it
 * gives one; the secret is never in a message.
 */
export async function requestShopifyAccessToken(
  api: ShopifyApi,
  shop: string,
  credentials: ShopifyCredentials,
  now = new Date(),
): Promise<ShopifyAccessToken> {
  const url = new URL(`${shopOrigin(api, shop)}/admin/oauth/access_token`);
  const { status, answer } = await send(
    api,
    url,
    { client_id: credentials.clientId, client_secret: credentials.clientSecret, grant_type: 'client_credentials' },
    {},
  );
  if (status >= 400 && status < 500) {
    const code = isObject(answer) && typeof answer.error === 'string' ? `: ${answer.error.slice(0, 60)}` : '';
    throw new ShopifyError('unauthorized', `Shopify refused the app's credentials (HTTP ${status}${code})`);
  }
  if (status < 200 || status >= 300) throw new ShopifyError('unreachable', `Shopify answered HTTP ${status}`);
  if (
    !isObject(answer) ||
    typeof answer.access_token !== 'string' ||
    answer.access_token === '' ||
    typeof answer.expires_in !== 'number' ||
    !Number.isFinite(answer.expires_in) ||
    answer.expires_in <= 0
  ) {
    throw new ShopifyError('invalid', 'Shopify answered without an access token and its lifetime');
  }
  return { accessToken: answer.access_token, expiresAt: new Date(now.getTime() + answer.expires_in * 1000) };
}

/**
 * One Admin GraphQL call. Shopify answers 401 for a token it does not take (expired or revoked:
 * `unauthorized`, which the caller may answer by minting a new token once), and HTTP 200 with an
 * `errors` list for a query it refuses or throttles.
 */
async function graphql(
  api: ShopifyApi,
  shop: string,
  accessToken: string,
  query: string,
  variables: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const url = new URL(`${shopOrigin(api, shop)}/admin/api/${SHOPIFY_API_VERSION}/graphql.json`);
  const { status, answer } = await send(api, url, { query, variables }, { 'x-shopify-access-token': accessToken });
  if (status === 401) throw new ShopifyError('unauthorized', 'Shopify refused the access token (HTTP 401)');
  if (status === 402 || status === 403 || status === 404 || status === 423) {
    throw new ShopifyError('refused', `Shopify refused the call (HTTP ${status})`);
  }
  if (status < 200 || status >= 300) throw new ShopifyError('unreachable', `Shopify answered HTTP ${status}`);
  if (!isObject(answer)) throw new ShopifyError('invalid', 'Shopify answered something other than JSON');
  if (Array.isArray(answer.errors) && answer.errors.length > 0) {
    const first = answer.errors[0];
    const message = isObject(first) && typeof first.message === 'string' ? first.message : 'GraphQL error';
    const code =
      isObject(first) && isObject(first.extensions) && typeof first.extensions.code === 'string'
        ? ` (${first.extensions.code})`
        : '';
    throw new ShopifyError(
      code === ' (THROTTLED)' ? 'unreachable' : 'invalid',
      `Shopify: ${message.slice(0, 200)}${code}`,
    );
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
 * Subscribes the store's app to Rayo's webhook address for each topic, naming it in `uri` (the
 * field that replaced the deprecated `callbackUrl`). Subscriptions made through the app's token
 * are signed with the app's client secret (those made in the store's Notifications settings are
 * not). A topic already subscribed to this address ("has already been taken") counts as done, so
 * connecting again is harmless. The compliance topics cannot be subscribed here: the app's
 * `shopify.app.toml` names them (integrations/shopify).
 */
export async function subscribeShopifyWebhooks(
  api: ShopifyApi,
  shop: string,
  accessToken: string,
  uri: string,
): Promise<void> {
  for (const topic of SHOPIFY_WEBHOOK_TOPICS) {
    const data = await graphql(api, shop, accessToken, SUBSCRIBE_MUTATION, {
      topic,
      webhookSubscription: { uri, format: 'JSON' },
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
