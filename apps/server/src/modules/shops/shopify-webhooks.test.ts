import type { AddressInfo } from 'node:net';
import type { Account, Bpt, ShopConnection, VirtualBpt } from '@rayo/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendShopifyWebhook, startShopifyStandIn } from '../../../test/shop-standins.ts';
import {
  bearer,
  createTestApp,
  createTestOrganization,
  createTestUser,
  signIn,
  type TestApp,
} from '../../../test/test-app.ts';
import { shopifyHmac } from '../../domain/shopify-hmac.ts';

let t: TestApp;
let shopify: Awaited<ReturnType<typeof startShopifyStandIn>>;
let webhookUrl: string;

beforeAll(async () => {
  shopify = await startShopifyStandIn();
  t = await createTestApp(
    {
      FIXED_RATES: 'GTQ=730000,USD=95000',
      PUBLIC_URL: 'https://pay.example.com',
      WEBHOOK_ALLOW_PRIVATE_HOSTS: 'true',
      SHOPIFY_SHOP_URL: shopify.shopUrl,
    },
    { jobs: true },
  );
  // Shopify reaches the server over HTTP: the signature covers the bytes on the wire.
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  webhookUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/api/public/shopify/webhooks`;
});

afterAll(async () => {
  await t?.close();
  await shopify?.stop();
});

const SECRET = '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';
let stores = 0;

async function inject<T>(method: 'GET' | 'PUT', url: string, headers: Record<string, string>, payload?: object) {
  const response = await t.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
  return { status: response.statusCode, body: response.json<T>(), raw: response.body };
}

/** A merchant whose Shopify store is connected through its Dev Dashboard app, whose client secret signs webhooks. */
async function connectedStore() {
  const organization = await createTestOrganization(t.db);
  const user = await createTestUser(t.db, { role: 'admin', organizationId: organization.id });
  const admin = bearer((await signIn(t.app, user.email, user.password)).accessToken);
  const created = await t.app.inject({
    method: 'POST',
    url: '/api/accounts',
    headers: admin,
    payload: { name: 'Web' },
  });
  const bpt = await t.app.inject({
    method: 'POST',
    url: '/api/bpts',
    headers: admin,
    payload: { name: 'Till', accountId: created.json<Account>().id, currency: 'GTQ' },
  });
  const vbpt = await t.app.inject({
    method: 'POST',
    url: '/api/virtual-bpts',
    headers: admin,
    payload: { name: 'Shop', bptId: bpt.json<Bpt>().id },
  });
  const shop = `hooks-${++stores}.myshopify.com`;
  const app = { clientId: `0a1b2c3d4e5f60718293a4b5c6d7e${String(stores).padStart(3, '0')}`, clientSecret: SECRET };
  shopify.addShop(shop, app, `Hooks ${stores}`);
  const connected = await inject<ShopConnection>('PUT', '/api/shops/shopify', admin, {
    shop,
    ...app,
    virtualBptId: vbpt.json<VirtualBpt>().id,
  });
  expect(connected.status, connected.raw).toBe(200);
  return { organization, admin, shop };
}

/** The shopper opens the order's 'Complete payment' link: its checkout, awaiting payment. */
async function openOrder(shop: string) {
  const order = shopify.addOrder(shop, {
    name: '#1001',
    amount: '50.00',
    currencyCode: 'GTQ',
    statusPageUrl: `https://${shop}/orders/1`,
  });
  const response = await t.app.inject({ method: 'GET', url: `/api/public/shopify/pay?shop=${shop}&order=${order}` });
  expect(response.statusCode, response.body).toBe(303);
  const checkoutId = /([0-9a-f-]{36})$/.exec(String(response.headers.location))?.[1] ?? '';
  return { order, checkoutId };
}

async function checkoutStatus(id: string) {
  return (await t.db.selectFrom('checkouts').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status;
}

describe('Shopify webhooks', () => {
  it('keeps the client secret sealed, and subscribes with uri, never the deprecated callbackUrl', async () => {
    const store = await connectedStore();
    const read = await inject<unknown>('GET', '/api/shops/shopify', store.admin);
    expect(read.raw).not.toContain(SECRET);
    const row = await t.db
      .selectFrom('shop_connections')
      .select('webhook_secret_sealed')
      .where('shop', '=', store.shop)
      .executeTakeFirstOrThrow();
    expect(row.webhook_secret_sealed).not.toBeNull();
    expect(row.webhook_secret_sealed).not.toContain(SECRET);
    // The app subscribed to the topics Rayo acts on, at Rayo's address; connecting again is harmless.
    const mine = shopify.subscriptions.filter((s) => s.shop === store.shop);
    expect(mine.map((s) => s.topic).sort()).toEqual(['APP_UNINSTALLED', 'ORDERS_CANCELLED', 'ORDERS_PAID']);
    expect(new Set(mine.map((s) => s.uri))).toEqual(new Set(['https://pay.example.com/api/public/shopify/webhooks']));
    expect(shopify.deprecatedUses).toEqual([]);
  });

  it("a cancelled order's open checkout expires, once for a repeated delivery", async () => {
    const store = await connectedStore();
    const { order, checkoutId } = await openOrder(store.shop);
    expect(await checkoutStatus(checkoutId)).toBe('awaiting_payment');
    // Shopify's order payload: the numeric id above 2^53 as a bare number, the GID as text.
    const body = `{"id":${order}820,"admin_graphql_api_id":"gid://shopify/Order/${order}","name":"#1001","cancel_reason":"customer","cancelled_at":"2026-11-27T10:00:00-06:00","financial_status":"pending"}`;
    const delivery = {
      shop: store.shop,
      topic: 'orders/cancelled',
      payload: null,
      body,
      secret: SECRET,
      webhookId: `wh-${order}`,
    };
    const first = await sendShopifyWebhook(webhookUrl, delivery);
    expect(first).toEqual({ status: 200, json: { handled: true } });
    expect(await checkoutStatus(checkoutId)).toBe('expired');
    expect(await sendShopifyWebhook(webhookUrl, delivery)).toEqual({ status: 200, json: { handled: false } });
    const seen = await t.db
      .selectFrom('shop_webhook_deliveries')
      .selectAll()
      .where('webhook_id', '=', `wh-${order}`)
      .execute();
    expect(seen).toHaveLength(1);
  });

  it('refuses a wrong signature, an unknown shop and an unsigned body with 401, never 500', async () => {
    const store = await connectedStore();
    const { order, checkoutId } = await openOrder(store.shop);
    const payload = { admin_graphql_api_id: `gid://shopify/Order/${order}`, cancelled_at: '2026-11-27T10:00:00Z' };
    const wrong = await sendShopifyWebhook(webhookUrl, {
      shop: store.shop,
      topic: 'orders/cancelled',
      payload,
      secret: 'shpss_not_the_right_secret_at_all',
    });
    expect(wrong).toMatchObject({ status: 401, json: { code: 'InvalidWebhookSignature' } });
    expect(await checkoutStatus(checkoutId)).toBe('awaiting_payment');

    // A store Rayo does not know cannot be verified: 401, as for a wrong signature, naming nothing.
    const unknown = await sendShopifyWebhook(webhookUrl, {
      shop: 'nobody-here.myshopify.com',
      topic: 'orders/cancelled',
      payload,
      secret: SECRET,
    });
    expect(unknown).toMatchObject({ status: 401, json: { code: 'InvalidWebhookSignature' } });

    // Signed bytes, other bytes sent: the server checks what arrived, not a re-serialization.
    const response = await fetch(webhookUrl, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-shopify-topic': 'orders/cancelled',
        'x-shopify-shop-domain': store.shop,
        'x-shopify-webhook-id': 'tampered',
        'x-shopify-hmac-sha256': shopifyHmac(Buffer.from(JSON.stringify(payload)), SECRET),
      },
      body: JSON.stringify(payload, null, 1),
    });
    expect(response.status).toBe(401);
    const garbage = await fetch(webhookUrl, {
      method: 'POST',
      headers: { 'content-type': 'text/plain', 'x-shopify-shop-domain': store.shop },
      body: 'not json at all',
    });
    expect(garbage.status).toBe(401);
    expect(await checkoutStatus(checkoutId)).toBe('awaiting_payment');
  });

  it('acts on a signed body only under the topic it fits: an order re-sent as app/uninstalled disconnects nothing', async () => {
    const store = await connectedStore();
    const { order, checkoutId } = await openOrder(store.shop);
    const orderCreated = `{"id":${order}1,"admin_graphql_api_id":"gid://shopify/Order/${order}","name":"#1001","financial_status":"pending","cancelled_at":null}`;
    const shopBody = JSON.stringify({ id: 1, name: 'Hooks', myshopify_domain: store.shop, domain: store.shop });
    const replays = [
      // The order, signed for orders/create, replayed under each topic Rayo acts on.
      ...[
        'app/uninstalled',
        'shop/redact',
        'customers/redact',
        'customers/data_request',
        'orders/paid',
        'orders/cancelled',
      ].map((topic) => ({ topic, body: orderCreated })),
      // The shop, signed for app/uninstalled or shop/update, replayed as an order or a redaction.
      { topic: 'orders/cancelled', body: shopBody },
      { topic: 'shop/redact', body: shopBody },
      // A redaction of another store, replayed here.
      { topic: 'shop/redact', body: JSON.stringify({ shop_id: 9, shop_domain: 'someone-else.myshopify.com' }) },
      { topic: 'app/uninstalled', body: JSON.stringify({ id: 9, myshopify_domain: 'someone-else.myshopify.com' }) },
    ];
    for (const replay of replays) {
      const answer = await sendShopifyWebhook(webhookUrl, {
        shop: store.shop,
        payload: null,
        secret: SECRET,
        ...replay,
      });
      expect(answer, `${replay.topic} ${replay.body}`).toMatchObject({ status: 400, json: { code: 'InvalidInput' } });
    }
    expect(
      (await inject<{ connection: unknown }>('GET', '/api/shops/shopify', store.admin)).body.connection,
    ).not.toBeNull();
    expect(await checkoutStatus(checkoutId)).toBe('awaiting_payment');
    // Under its own topic, an order Rayo does not act on is acknowledged.
    const created = await sendShopifyWebhook(webhookUrl, {
      shop: store.shop,
      topic: 'orders/create',
      payload: null,
      body: orderCreated,
      secret: SECRET,
    });
    expect(created).toEqual({ status: 200, json: { handled: false } });
    expect(await checkoutStatus(checkoutId)).toBe('awaiting_payment');
  });

  it('app/uninstalled disconnects the store', async () => {
    const store = await connectedStore();
    const uninstalled = await sendShopifyWebhook(webhookUrl, {
      shop: store.shop,
      topic: 'app/uninstalled',
      payload: { id: 1, name: 'Hooks', domain: store.shop, myshopify_domain: store.shop },
      secret: SECRET,
    });
    expect(uninstalled).toEqual({ status: 200, json: { handled: true } });
    expect((await inject<unknown>('GET', '/api/shops/shopify', store.admin)).body).toEqual({ connection: null });
    const audit = await t.db
      .selectFrom('audit_log')
      .select(['action', 'ip'])
      .where('organization_id', '=', store.organization.id)
      .where('action', '=', 'settings.shop_disconnected')
      .execute();
    expect(audit).toHaveLength(1);
    // The sender's address, as for every public call that audits.
    expect(audit[0]?.ip).toMatch(/^(::ffff:)?127\.0\.0\.1$/);
  });

  it('answers the compliance topics: data requests and customer redactions are recorded, shop/redact disconnects', async () => {
    const store = await connectedStore();
    const { order } = await openOrder(store.shop);
    const customer = { id: 191167, email: 'john@example.com', phone: '555-625-1199' };
    const dataRequest = await sendShopifyWebhook(webhookUrl, {
      shop: store.shop,
      topic: 'customers/data_request',
      payload: {
        shop_id: 954889,
        shop_domain: store.shop,
        orders_requested: [Number(order)],
        customer,
        data_request: { id: 9999 },
      },
      secret: SECRET,
    });
    expect(dataRequest).toEqual({ status: 200, json: { handled: true } });
    const redact = await sendShopifyWebhook(webhookUrl, {
      shop: store.shop,
      topic: 'customers/redact',
      payload: { shop_id: 954889, shop_domain: store.shop, customer, orders_to_redact: [Number(order), 2, 3] },
      secret: SECRET,
    });
    expect(redact).toEqual({ status: 200, json: { handled: true } });
    const requests = await t.db
      .selectFrom('audit_log')
      .select(['action', 'after', 'ip'])
      .where('organization_id', '=', store.organization.id)
      .where('action', '=', 'shop.privacy_request')
      .orderBy('occurred_at')
      .execute();
    expect(requests.map((entry) => entry.after)).toEqual([
      { topic: 'customers/data_request', orders: 1, customerDataKept: false },
      { topic: 'customers/redact', orders: 3, customerDataKept: false },
    ]);
    for (const entry of requests) expect(entry.ip).toMatch(/^(::ffff:)?127\.0\.0\.1$/);
    expect(JSON.stringify(requests)).not.toContain('john@example.com');

    // Each compliance topic refuses a wrong signature with 401, as Shopify's checks expect.
    for (const topic of ['customers/data_request', 'customers/redact', 'shop/redact']) {
      const unsigned = await sendShopifyWebhook(webhookUrl, {
        shop: store.shop,
        topic,
        payload: { shop_id: 954889, shop_domain: store.shop },
        secret: 'shpss_wrong',
      });
      expect(unsigned.status, topic).toBe(401);
    }

    const shopRedact = await sendShopifyWebhook(webhookUrl, {
      shop: store.shop,
      topic: 'shop/redact',
      payload: { shop_id: 954889, shop_domain: store.shop },
      secret: SECRET,
    });
    expect(shopRedact).toEqual({ status: 200, json: { handled: true } });
    expect((await inject<unknown>('GET', '/api/shops/shopify', store.admin)).body).toEqual({ connection: null });
  });
});
