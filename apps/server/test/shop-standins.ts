import { createCipheriv, createHmac, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { buildSchema, execute, type GraphQLError, parse, validate } from 'graphql';

/**
 * Local stand-ins for the shop platforms, written from reference/ecommerce.md and the platforms'
 * documented shapes, not from Rayo's clients: Shopify's token endpoint and Admin GraphQL API,
 * Ecwid's profile and order REST calls, and each platform's side of its signatures and
 * encryption.
 */

async function listen(server: http.Server, port: number): Promise<number> {
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', () => resolve()));
  return (server.address() as AddressInfo).port;
}

function readBody(request: http.IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });
}

export type StandInOrder = {
  name: string;
  amount: string;
  currencyCode: string;
  financialStatus: 'PENDING' | 'PAID' | 'PARTIALLY_PAID';
  statusPageUrl: string;
};

/** The API version the stand-in speaks, as Rayo pins it. */
export const STANDIN_SHOPIFY_API_VERSION = '2026-10';

/**
 * The part of the Admin GraphQL API 2026-10 schema Rayo calls, transcribed from shopify.dev
 * (docs/api/admin-graphql/2026-10: QueryRoot.shop and .order, Mutation.orderMarkAsPaid and
 * .webhookSubscriptionCreate, their input objects and payloads). graphql.js validates each query
 * against it, so a field, argument or input field Shopify does not have is refused as Shopify
 * refuses it: HTTP 200 with an `errors` list and no `data`.
 */
const ADMIN_SCHEMA = buildSchema(`
  scalar Decimal
  scalar URL
  enum CurrencyCode { GTQ USD EUR MXN }
  enum OrderDisplayFinancialStatus { PENDING AUTHORIZED PARTIALLY_PAID PAID PARTIALLY_REFUNDED REFUNDED VOIDED EXPIRED }
  enum WebhookSubscriptionTopic { APP_UNINSTALLED ORDERS_CANCELLED ORDERS_CREATE ORDERS_PAID ORDERS_UPDATED }
  enum WebhookSubscriptionFormat { JSON XML }
  type MoneyV2 { amount: Decimal! currencyCode: CurrencyCode! }
  type MoneyBag { shopMoney: MoneyV2! presentmentMoney: MoneyV2! }
  type Shop { id: ID! name: String! currencyCode: CurrencyCode! myshopifyDomain: String! }
  type Order {
    id: ID!
    name: String!
    displayFinancialStatus: OrderDisplayFinancialStatus
    statusPageUrl: URL!
    totalOutstandingSet: MoneyBag!
  }
  type UserError { field: [String!] message: String! }
  type OrderMarkAsPaidPayload { order: Order userErrors: [UserError!]! }
  input OrderMarkAsPaidInput { id: ID! }
  type WebhookSubscription { id: ID! topic: WebhookSubscriptionTopic! uri: String! }
  input WebhookSubscriptionInput {
    uri: String
    callbackUrl: URL @deprecated(reason: "Use uri instead.")
    format: WebhookSubscriptionFormat
    includeFields: [String!]
    metafieldNamespaces: [String!]
    filter: String
  }
  type WebhookSubscriptionCreatePayload { webhookSubscription: WebhookSubscription userErrors: [UserError!]! }
  type QueryRoot { shop: Shop! order(id: ID!): Order }
  type Mutation {
    orderMarkAsPaid(input: OrderMarkAsPaidInput!): OrderMarkAsPaidPayload
    webhookSubscriptionCreate(
      topic: WebhookSubscriptionTopic!
      webhookSubscription: WebhookSubscriptionInput!
    ): WebhookSubscriptionCreatePayload
  }
  schema { query: QueryRoot mutation: Mutation }
`);

/** Shopify's error entries: a message, where it was, and a code under `extensions`. */
function shopifyErrors(errors: readonly GraphQLError[], code: string) {
  return {
    errors: errors.map((error) => ({
      message: error.message,
      ...(error.locations ? { locations: error.locations } : {}),
      ...(error.path ? { path: error.path } : {}),
      extensions: { code },
    })),
  };
}

/** Lifetime of a token from the client credentials grant (shopify.dev client-credentials-grant: 86399 s). */
const TOKEN_SECONDS = 86_399;

/**
 * Shopify for any number of stores, each at `/{shop}` (so `SHOPIFY_SHOP_URL` is
 * `http://127.0.0.1:<port>/{shop}`), each with a Dev Dashboard app installed:
 * - `POST /{shop}/admin/oauth/access_token`: the client credentials grant (JSON or form body, as
 *   shopify.dev "Using the client credentials grant" and @shopify/shopify-api's
 *   clientCredentials send it). It answers `{access_token, scope, expires_in}`; a wrong id or
 *   secret is 400 `invalid_client` (shopify-api's client-credentials test), an app installed on
 *   another store 400 `app_not_installed` (community.shopify.dev thread 33287), another
 *   grant_type 400 `unsupported_grant_type` (RFC 6749 §5.2).
 * - `POST /{shop}/admin/api/2026-10/graphql.json` with `X-Shopify-Access-Token`: an unknown,
 *   revoked or expired token is 401 with Shopify's `[API] Invalid API key or access token`
 *   text (shopify.dev "API authentication" errors); the query is validated against the schema
 *   above; `shop`, `order`, `orderMarkAsPaid` and `webhookSubscriptionCreate` answer in their
 *   documented shapes with `userErrors`; a throttled call is 200 with a `THROTTLED` error
 *   (shopify.dev "Shopify API rate limits").
 * An unknown store or any other path is 404. Tokens expire on the stand-in's clock, which a test
 * moves with `advanceClock` instead of waiting 24 hours.
 */
/** `port` 0 picks a free one; the e2e server is configured with a fixed one. */
export async function startShopifyStandIn(port = 0) {
  const shops = new Map<string, { clientId: string; clientSecret: string; name: string; currencyCode: string }>();
  const tokens = new Map<string, { shop: string; expiresAt: number }>();
  const orders = new Map<string, StandInOrder & { shop: string }>();
  const marks: Array<{ shop: string; id: string }> = [];
  /** Webhook subscriptions the app made through webhookSubscriptionCreate. */
  const subscriptions: Array<{ shop: string; topic: string; uri: string }> = [];
  /** Every token grant asked for, and every GraphQL call with the status it got. */
  const grants: Array<{ shop: string; status: number }> = [];
  const calls: Array<{ shop: string; status: number; query: string; variables: Record<string, unknown> }> = [];
  /** A webhookSubscriptionCreate that named the deprecated callbackUrl. */
  const deprecatedUses: string[] = [];
  let clockOffsetMs = 0;
  let failMarks = 0;
  let loseMarkAnswers = 0;
  let throttle = 0;
  let nextOrder = 5_000_000_000;
  const now = () => Date.now() + clockOffsetMs;

  function tokenGrant(shopName: string, body: string, contentType: string) {
    const shop = shops.get(shopName);
    let fields: Record<string, unknown> = {};
    try {
      fields = contentType.includes('application/json')
        ? (JSON.parse(body) as Record<string, unknown>)
        : Object.fromEntries(new URLSearchParams(body));
    } catch {
      return { status: 400, json: { error: 'invalid_request', error_description: 'The request body is malformed.' } };
    }
    if (fields.grant_type !== 'client_credentials') {
      return { status: 400, json: { error: 'unsupported_grant_type', error_description: 'Unsupported grant type.' } };
    }
    const installedElsewhere = [...shops.values()].some(
      (other) => other.clientId === fields.client_id && other.clientSecret === fields.client_secret,
    );
    if (!shop || shop.clientId !== fields.client_id || shop.clientSecret !== fields.client_secret) {
      return installedElsewhere
        ? {
            status: 400,
            json: { error: 'app_not_installed', error_description: 'The application is not installed on this shop.' },
          }
        : { status: 400, json: { error: 'invalid_client', error_description: 'Client authentication failed.' } };
    }
    const accessToken = `shpat_${randomBytes(16).toString('hex')}`;
    tokens.set(accessToken, { shop: shopName, expiresAt: now() + TOKEN_SECONDS * 1000 });
    return {
      status: 200,
      json: { access_token: accessToken, scope: 'read_orders,write_orders', expires_in: TOKEN_SECONDS },
    };
  }

  function resolvers(shopName: string) {
    const shop = shops.get(shopName) as NonNullable<ReturnType<typeof shops.get>>;
    const orderOf = (id: unknown) => {
      const order = typeof id === 'string' ? orders.get(id) : undefined;
      return order && order.shop === shopName ? order : undefined;
    };
    const orderView = (id: string, order: StandInOrder) => ({
      id,
      name: order.name,
      displayFinancialStatus: order.financialStatus,
      statusPageUrl: order.statusPageUrl,
      totalOutstandingSet: {
        shopMoney: { amount: order.amount, currencyCode: order.currencyCode },
        presentmentMoney: { amount: order.amount, currencyCode: order.currencyCode },
      },
    });
    return {
      shop: () => ({
        id: 'gid://shopify/Shop/1',
        name: shop.name,
        currencyCode: shop.currencyCode,
        myshopifyDomain: shopName,
      }),
      order: ({ id }: { id: string }) => {
        const order = orderOf(id);
        return order ? orderView(id, order) : null;
      },
      orderMarkAsPaid: ({ input }: { input: { id: string } }) => {
        const order = orderOf(input.id);
        if (!order) return { order: null, userErrors: [{ field: ['id'], message: 'Order does not exist' }] };
        if (order.financialStatus === 'PAID') {
          return { order: null, userErrors: [{ field: ['id'], message: 'Order cannot be marked as paid.' }] };
        }
        order.financialStatus = 'PAID';
        order.amount = '0.0';
        marks.push({ shop: shopName, id: input.id });
        return { order: orderView(input.id, order), userErrors: [] };
      },
      webhookSubscriptionCreate: ({
        topic,
        webhookSubscription,
      }: {
        topic: string;
        webhookSubscription: { uri?: string; callbackUrl?: string };
      }) => {
        if (webhookSubscription.callbackUrl !== undefined) deprecatedUses.push('callbackUrl');
        const uri = webhookSubscription.uri ?? webhookSubscription.callbackUrl;
        if (!uri) {
          return {
            webhookSubscription: null,
            userErrors: [{ field: ['webhookSubscription', 'uri'], message: "Uri can't be blank" }],
          };
        }
        const taken = subscriptions.some((s) => s.shop === shopName && s.topic === topic && s.uri === uri);
        if (taken) {
          return {
            webhookSubscription: null,
            userErrors: [
              { field: ['webhookSubscription', 'uri'], message: 'Address for this topic has already been taken' },
            ],
          };
        }
        subscriptions.push({ shop: shopName, topic, uri });
        return {
          webhookSubscription: { id: `gid://shopify/WebhookSubscription/${subscriptions.length}`, topic, uri },
          userErrors: [],
        };
      },
    };
  }

  const server = http.createServer(async (request, response) => {
    const body = await readBody(request);
    const answer = (status: number, json: unknown) =>
      response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(json));
    const grant = /^\/([^/]+)\/admin\/oauth\/access_token$/.exec(request.url ?? '');
    const graph = /^\/([^/]+)\/admin\/api\/([0-9]{4}-[0-9]{2})\/graphql\.json$/.exec(request.url ?? '');
    const shopName = decodeURIComponent((grant?.[1] ?? graph?.[1] ?? '') as string);
    if (request.method !== 'POST' || !shops.has(shopName) || (!grant && graph?.[2] !== STANDIN_SHOPIFY_API_VERSION)) {
      return answer(404, { errors: 'Not Found' });
    }
    if (grant) {
      const result = tokenGrant(shopName, body, String(request.headers['content-type'] ?? ''));
      grants.push({ shop: shopName, status: result.status });
      return answer(result.status, result.json);
    }
    let parsed: { query?: unknown; variables?: unknown };
    try {
      parsed = JSON.parse(body);
    } catch {
      return answer(400, { errors: 'Bad Request' });
    }
    const query = typeof parsed.query === 'string' ? parsed.query : '';
    const variables = (parsed.variables ?? {}) as Record<string, unknown>;
    const record = (status: number) => calls.push({ shop: shopName, status, query, variables });
    const token = tokens.get(String(request.headers['x-shopify-access-token'] ?? ''));
    if (!token || token.shop !== shopName || token.expiresAt <= now()) {
      record(401);
      return answer(401, { errors: '[API] Invalid API key or access token (unrecognized login or wrong password)' });
    }
    record(200);
    if (throttle > 0) {
      throttle--;
      return answer(200, {
        errors: [
          {
            message: 'Throttled',
            extensions: { code: 'THROTTLED', documentation: 'https://shopify.dev/api/usage/rate-limits' },
          },
        ],
      });
    }
    let document: ReturnType<typeof parse>;
    try {
      document = parse(query);
    } catch (error) {
      return answer(200, shopifyErrors([error as GraphQLError], 'parseError'));
    }
    const invalid = validate(ADMIN_SCHEMA, document);
    if (invalid.length > 0) return answer(200, shopifyErrors(invalid, 'undefinedField'));
    const isMark = /\borderMarkAsPaid\b/.test(query);
    if (isMark && failMarks > 0) {
      failMarks--;
      return answer(503, { errors: 'Service Unavailable' });
    }
    const result = await execute({
      schema: ADMIN_SCHEMA,
      document,
      rootValue: resolvers(shopName),
      variableValues: variables,
    });
    if (result.errors && result.errors.length > 0 && !result.data) {
      return answer(200, shopifyErrors(result.errors, 'variableMismatch'));
    }
    if (isMark && loseMarkAnswers > 0) {
      loseMarkAnswers--;
      // The mark is made, but its answer never arrives.
      return response.destroy();
    }
    return answer(200, { data: result.data });
  });
  const bound = await listen(server, port);
  return {
    shopUrl: `http://127.0.0.1:${bound}/{shop}`,
    marks,
    subscriptions,
    grants,
    calls,
    deprecatedUses,
    /** A store with the app installed, whose client id and secret mint its tokens. */
    addShop(domain: string, app: { clientId: string; clientSecret: string }, name: string, currencyCode = 'GTQ') {
      shops.set(domain, { ...app, name, currencyCode });
    },
    /** A new order of the shop; answers its numeric id, as the extensions' pay link carries it. */
    addOrder(
      shop: string,
      order: Omit<StandInOrder, 'financialStatus'> & { financialStatus?: StandInOrder['financialStatus'] },
    ) {
      const numeric = String(nextOrder++);
      orders.set(`gid://shopify/Order/${numeric}`, { financialStatus: 'PENDING', ...order, shop });
      return numeric;
    },
    order: (numeric: string) => orders.get(`gid://shopify/Order/${numeric}`),
    /** Moves the stand-in's clock, so tokens expire as they would after that long. */
    advanceClock(ms: number) {
      clockOffsetMs += ms;
    },
    /** Every token of the store stops working, as when the app's secret is rotated. */
    revokeTokens(shop: string) {
      for (const [token, held] of tokens) if (held.shop === shop) tokens.delete(token);
    },
    /** The next `count` orderMarkAsPaid calls answer 503 without marking. */
    failNextMarks(count: number) {
      failMarks = count;
    },
    /** The next `count` orderMarkAsPaid calls mark the order and drop the connection unanswered. */
    loseNextMarkAnswers(count: number) {
      loseMarkAnswers = count;
    },
    /** The next `count` GraphQL calls are throttled. */
    throttleNext(count: number) {
      throttle = count;
    },
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/**
 * Shopify's side of a webhook delivery (reference/ecommerce.md §2): a POST of the JSON payload
 * with X-Shopify-Topic, X-Shopify-Shop-Domain, X-Shopify-Webhook-Id and X-Shopify-Hmac-Sha256,
 * the base64 HMAC-SHA256 of the exact body bytes keyed with the app's API secret key.
 */
export async function sendShopifyWebhook(
  url: string,
  delivery: { shop: string; topic: string; payload: unknown; secret: string; webhookId?: string; body?: string },
): Promise<{ status: number; json: Record<string, unknown> }> {
  // Shopify's payloads carry ids above 2^53 as bare numbers; the text is sent as it is signed.
  const body = delivery.body ?? JSON.stringify(delivery.payload);
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-shopify-topic': delivery.topic,
      'x-shopify-shop-domain': delivery.shop,
      'x-shopify-webhook-id': delivery.webhookId ?? randomBytes(16).toString('hex'),
      'x-shopify-api-version': STANDIN_SHOPIFY_API_VERSION,
      'x-shopify-hmac-sha256': createHmac('sha256', delivery.secret).update(body, 'utf8').digest('base64'),
    },
    body,
  });
  return { status: response.status, json: (await response.json()) as Record<string, unknown> };
}

/**
 * Ecwid's REST API for the two calls Rayo makes, each with a bearer token of the store's app:
 * - `GET /api/v3/{storeId}/profile`: `generalInfo.storeId` and `settings.storeName`, as in
 *   Ecwid-api-docs `includes/_store_profile.md`;
 * - `PUT /api/v3/{storeId}/orders/{id}`, recording each update it takes (`{"updateCount":1}` as
 *   Ecwid answers, `includes/_orders.md`).
 * A token works for its own store only (docs.ecwid.com develop-apps/app-settings: "an access
 * token from one store won't work for another one"), so any other token, or a store it does not
 * know, is answered 403.
 */
export async function startEcwidStandIn(port = 0) {
  const tokens = new Map<string, string>();
  const names = new Map<string, string>();
  const updates: Array<{ storeId: string; orderId: string; body: unknown }> = [];
  let failUpdates = 0;
  const server = http.createServer(async (request, response) => {
    const body = await readBody(request);
    const answer = (status: number, json: unknown) =>
      response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(json));
    const profile = /^\/api\/v3\/(\d+)\/profile$/.exec(request.url ?? '');
    const match = /^\/api\/v3\/(\d+)\/orders\/([^/?]+)$/.exec(request.url ?? '');
    const storeId = (profile?.[1] ?? match?.[1]) as string;
    if (!(request.method === 'GET' && profile) && !(request.method === 'PUT' && match)) {
      return answer(404, { errorMessage: 'Not found' });
    }
    if (!tokens.has(storeId) || request.headers.authorization !== `Bearer ${tokens.get(storeId)}`) {
      return answer(403, { errorMessage: 'Token doesn’t have enough permissions' });
    }
    if (profile) {
      return answer(200, {
        generalInfo: { storeId: Number(storeId), storeUrl: `https://store${storeId}.company.site` },
        account: { accountName: 'Store Owner' },
        settings: { closed: false, storeName: names.get(storeId) ?? `Store ${storeId}` },
        formatsAndUnits: { currency: 'GTQ', currencyPrecision: 2 },
      });
    }
    if (!match) return answer(404, { errorMessage: 'Not found' });
    if (failUpdates > 0) {
      failUpdates--;
      return answer(500, { errorMessage: 'Internal error' });
    }
    updates.push({ storeId, orderId: decodeURIComponent(match[2] as string), body: JSON.parse(body) });
    return answer(200, { updateCount: 1 });
  });
  const bound = await listen(server, port);
  return {
    apiUrl: `http://127.0.0.1:${bound}`,
    updates,
    /** A store with the app installed: `token` is its secret token, also sent in each payment request. */
    addStore(storeId: string, token: string, name?: string) {
      tokens.set(storeId, token);
      if (name !== undefined) names.set(storeId, name);
    },
    failNextUpdates(count: number) {
      failUpdates = count;
    },
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function urlSafeBase64(bytes: Buffer): string {
  return bytes.toString('base64').replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** Ecwid's `enc_data`: AES-128-GCM with the secret's first 16 characters; IV, ciphertext, tag. */
export function ecwidEncryptGcm(plaintext: string, clientSecret: string): string {
  const iv = randomBytes(16);
  const cipher = createCipheriv('aes-128-gcm', Buffer.from(clientSecret.slice(0, 16)), iv);
  const body = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  return urlSafeBase64(Buffer.concat([iv, body, cipher.getAuthTag()]));
}

/** Ecwid's legacy `data`: AES-128-CBC, PKCS#7; IV then ciphertext. */
export function ecwidEncryptCbc(plaintext: string, clientSecret: string): string {
  const iv = randomBytes(16);
  const cipher = createCipheriv('aes-128-cbc', Buffer.from(clientSecret.slice(0, 16)), iv);
  return urlSafeBase64(Buffer.concat([iv, cipher.update(plaintext), cipher.final()]));
}
