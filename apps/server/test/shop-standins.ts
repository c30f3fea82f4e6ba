import { createCipheriv, createHmac, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Local stand-ins for the shop platforms, written from reference/ecommerce.md and the platforms'
 * documented shapes, not from Rayo's clients: a Shopify Admin GraphQL endpoint and Ecwid's
 * order REST call, plus Ecwid's side of the payment-request encryption.
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

/**
 * A Shopify Admin GraphQL API for any number of shops, at `/{shop}/admin/api/graphql.json` (so
 * `SHOPIFY_API_URL` is `http://127.0.0.1:<port>/{shop}/admin/api/graphql.json`). It checks
 * `X-Shopify-Access-Token` (401 as Shopify answers a wrong one), and answers the `shop`, `order`
 * and `orderMarkAsPaid` operations in their documented shapes, with `userErrors`.
 */
/** `port` 0 picks a free one; the e2e server is configured with a fixed one. */
export async function startShopifyStandIn(port = 0) {
  const shops = new Map<string, { token: string; name: string; currencyCode: string }>();
  const orders = new Map<string, StandInOrder & { shop: string }>();
  const marks: Array<{ shop: string; id: string }> = [];
  /** Webhook subscriptions the app made through webhookSubscriptionCreate. */
  const subscriptions: Array<{ shop: string; topic: string; callbackUrl: string }> = [];
  let failMarks = 0;
  let loseMarkAnswers = 0;
  let nextOrder = 5_000_000_000;

  const server = http.createServer(async (request, response) => {
    const body = await readBody(request);
    const answer = (status: number, json: unknown) =>
      response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(json));
    const match = /^\/([^/]+)\/admin\/api\/graphql\.json$/.exec(request.url ?? '');
    const shop = match ? shops.get(decodeURIComponent(match[1] as string)) : undefined;
    if (request.method !== 'POST' || !match || !shop) return answer(404, { errors: 'Not Found' });
    if (request.headers['x-shopify-access-token'] !== shop.token) {
      return answer(401, { errors: '[API] Invalid API key or access token (unrecognized login or wrong password)' });
    }
    let parsed: { query?: string; variables?: Record<string, unknown> };
    try {
      parsed = JSON.parse(body);
    } catch {
      return answer(400, { errors: 'Bad Request' });
    }
    const query = parsed.query ?? '';
    const variables = parsed.variables ?? {};
    const shopName = decodeURIComponent(match[1] as string);
    const orderOf = (id: unknown) => {
      const order = typeof id === 'string' ? orders.get(id) : undefined;
      return order && order.shop === shopName ? order : undefined;
    };
    if (/\borderMarkAsPaid\s*\(/.test(query)) {
      const input = variables.input as { id?: unknown } | undefined;
      if (failMarks > 0) {
        failMarks--;
        return answer(503, { errors: 'Service Unavailable' });
      }
      const order = orderOf(input?.id);
      if (!order) {
        return answer(200, {
          data: { orderMarkAsPaid: { order: null, userErrors: [{ field: ['id'], message: 'Order does not exist' }] } },
        });
      }
      if (order.financialStatus === 'PAID') {
        return answer(200, {
          data: {
            orderMarkAsPaid: {
              order: null,
              userErrors: [{ field: ['id'], message: 'Order cannot be marked as paid.' }],
            },
          },
        });
      }
      order.financialStatus = 'PAID';
      order.amount = '0.0';
      marks.push({ shop: shopName, id: String(input?.id) });
      if (loseMarkAnswers > 0) {
        loseMarkAnswers--;
        // The mark is made, but its answer never arrives.
        return response.destroy();
      }
      return answer(200, {
        data: { orderMarkAsPaid: { order: { id: input?.id, displayFinancialStatus: 'PAID' }, userErrors: [] } },
      });
    }
    if (/\bwebhookSubscriptionCreate\s*\(/.test(query)) {
      const topic = String(variables.topic);
      const input = variables.webhookSubscription as { callbackUrl?: string } | undefined;
      const taken = subscriptions.some(
        (s) => s.shop === match[1] && s.topic === topic && s.callbackUrl === input?.callbackUrl,
      );
      if (!taken) subscriptions.push({ shop: match[1] as string, topic, callbackUrl: String(input?.callbackUrl) });
      return answer(200, {
        data: {
          webhookSubscriptionCreate: taken
            ? {
                webhookSubscription: null,
                userErrors: [
                  {
                    field: ['webhookSubscription', 'callbackUrl'],
                    message: 'Address for this topic has already been taken',
                  },
                ],
              }
            : {
                webhookSubscription: { id: `gid://shopify/WebhookSubscription/${subscriptions.length}` },
                userErrors: [],
              },
        },
      });
    }
    if (/\border\s*\(/.test(query)) {
      const order = orderOf(variables.id);
      return answer(200, {
        data: {
          order: order
            ? {
                id: variables.id,
                name: order.name,
                displayFinancialStatus: order.financialStatus,
                statusPageUrl: order.statusPageUrl,
                totalOutstandingSet: { shopMoney: { amount: order.amount, currencyCode: order.currencyCode } },
              }
            : null,
        },
      });
    }
    if (/\bshop\s*\{/.test(query))
      return answer(200, { data: { shop: { name: shop.name, currencyCode: shop.currencyCode } } });
    return answer(200, { errors: [{ message: 'Field does not exist on QueryRoot' }] });
  });
  const bound = await listen(server, port);
  return {
    apiUrl: `http://127.0.0.1:${bound}/{shop}/admin/api/graphql.json`,
    marks,
    subscriptions,
    addShop(domain: string, token: string, name: string, currencyCode = 'GTQ') {
      shops.set(domain, { token, name, currencyCode });
    },
    /** A new order of the shop; answers its numeric id, as an order status page link carries it. */
    addOrder(
      shop: string,
      order: Omit<StandInOrder, 'financialStatus'> & { financialStatus?: StandInOrder['financialStatus'] },
    ) {
      const numeric = String(nextOrder++);
      orders.set(`gid://shopify/Order/${numeric}`, { financialStatus: 'PENDING', ...order, shop });
      return numeric;
    },
    order: (numeric: string) => orders.get(`gid://shopify/Order/${numeric}`),
    /** The next `count` orderMarkAsPaid calls answer 503 without marking. */
    failNextMarks(count: number) {
      failMarks = count;
    },
    /** The next `count` orderMarkAsPaid calls mark the order and drop the connection unanswered. */
    loseNextMarkAnswers(count: number) {
      loseMarkAnswers = count;
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
      'x-shopify-api-version': '2025-01',
      'x-shopify-hmac-sha256': createHmac('sha256', delivery.secret).update(body, 'utf8').digest('base64'),
    },
    body,
  });
  return { status: response.status, json: (await response.json()) as Record<string, unknown> };
}

/**
 * Ecwid's REST API for order updates: `PUT /api/v3/{storeId}/orders/{id}` with a bearer store
 * token, recording each update it takes (`{"updateCount":1}` as Ecwid answers).
 */
export async function startEcwidStandIn(port = 0) {
  const tokens = new Map<string, string>();
  const updates: Array<{ storeId: string; orderId: string; body: unknown }> = [];
  let failUpdates = 0;
  const server = http.createServer(async (request, response) => {
    const body = await readBody(request);
    const answer = (status: number, json: unknown) =>
      response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(json));
    const match = /^\/api\/v3\/(\d+)\/orders\/([^/?]+)$/.exec(request.url ?? '');
    if (request.method !== 'PUT' || !match) return answer(404, { errorMessage: 'Not found' });
    const storeId = match[1] as string;
    if (request.headers.authorization !== `Bearer ${tokens.get(storeId)}`) {
      return answer(403, { errorMessage: 'Token doesn’t have enough permissions' });
    }
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
    addStore(storeId: string, token: string) {
      tokens.set(storeId, token);
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
