import type { Account, Bpt, ErrorResponse, PublicCheckout, ShopConnection, VirtualBpt } from '@rayo/shared';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ecwidEncryptCbc,
  ecwidEncryptGcm,
  startEcwidStandIn,
  startShopifyStandIn,
} from '../../../test/shop-standins.ts';
import {
  bearer,
  createTestApp,
  createTestOrganization,
  createTestUser,
  signIn,
  type TestApp,
} from '../../../test/test-app.ts';
import { waitFor } from '../../../test/wait-for.ts';
import { listAuditEntries } from '../audit/audit.repo.ts';
import { markShopOrderPaid } from './shop-orders.service.ts';

let t: TestApp;
let shopify: Awaited<ReturnType<typeof startShopifyStandIn>>;
let ecwid: Awaited<ReturnType<typeof startEcwidStandIn>>;

beforeAll(async () => {
  shopify = await startShopifyStandIn();
  ecwid = await startEcwidStandIn();
  t = await createTestApp(
    {
      FIXED_RATES: 'GTQ=730000,USD=95000',
      PUBLIC_URL: 'https://pay.example.com',
      WEBHOOK_ALLOW_PRIVATE_HOSTS: 'true',
      SHOPIFY_SHOP_URL: shopify.shopUrl,
      ECWID_API_URL: ecwid.apiUrl,
    },
    { jobs: true, jobPollIntervalMs: 100 },
  );
});
afterAll(async () => {
  await t?.close();
  await shopify?.stop();
  await ecwid?.stop();
});

type Headers = Record<string, string>;

async function call<T>(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, headers?: Headers, payload?: unknown) {
  const response = await t.app.inject({
    method,
    url,
    headers,
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
  return { status: response.statusCode, body: response.body ? (response.json() as T) : (undefined as T) };
}

let storeCount = 0;

/** An organization with a virtual BPT charging in `currency`, and its admin. */
async function openMerchant(currency = 'GTQ') {
  const organization = await createTestOrganization(t.db);
  const user = await createTestUser(t.db, { role: 'admin', organizationId: organization.id });
  const admin = bearer((await signIn(t.app, user.email, user.password)).accessToken);
  const account = (await call<Account>('POST', '/api/accounts', admin, { name: 'Online' })).body;
  const bpt = (await call<Bpt>('POST', '/api/bpts', admin, { name: 'Till', accountId: account.id, currency })).body;
  const vbpt = (await call<VirtualBpt>('POST', '/api/virtual-bpts', admin, { name: 'Web shop', bptId: bpt.id })).body;
  storeCount++;
  return { organization, admin, vbpt, n: storeCount };
}

/** A Dev Dashboard app's credentials, as the merchant copies them from its Settings page. */
function appOf(n: number | string) {
  return {
    clientId: `3f9c0a1b2c3d4e5f6a7b8c9d0e1f${String(n).padStart(4, '0')}`,
    clientSecret: `shpss_app_secret_${n}_0123456789abcdef`,
  };
}

async function connectShopify(merchant: Awaited<ReturnType<typeof openMerchant>>) {
  const shop = `store-${merchant.n}.myshopify.com`;
  const app = appOf(merchant.n);
  shopify.addShop(shop, app, `Store ${merchant.n}`);
  const connected = await call<ShopConnection>('PUT', '/api/shops/shopify', merchant.admin, {
    shop,
    ...app,
    virtualBptId: merchant.vbpt.id,
  });
  expect(connected.status, JSON.stringify(connected.body)).toBe(200);
  return { shop, app };
}

/** What a browser sends when it follows a link or posts a form. */
const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

async function openPayLink(query: string) {
  return t.app.inject({
    method: 'GET',
    url: `/api/public/shopify/pay?${query}`,
    headers: { accept: BROWSER_ACCEPT, 'accept-language': 'en' },
  });
}

function checkoutIdOf(location: unknown): string {
  const match = /^\/ecommerce\/checkout\/([0-9a-f-]{36})$/.exec(String(location));
  expect(match, String(location)).not.toBeNull();
  return (match as RegExpExecArray)[1] as string;
}

async function payCheckout(id: string) {
  const checkout = (await call<PublicCheckout>('GET', `/api/public/checkouts/${id}`)).body;
  const paid = await call('POST', '/api/devnet/pay', undefined, { paymentRequest: checkout.invoice?.paymentRequest });
  expect(paid.status, JSON.stringify(paid.body)).toBe(200);
}

async function shopOrderOf(checkoutId: string) {
  return t.db.selectFrom('shop_orders').selectAll().where('checkout_id', '=', checkoutId).executeTakeFirstOrThrow();
}

/** Makes the order's pending retry due now, as if its backoff had passed. */
async function makeRetryDue(shopOrderId: string) {
  await sql`update graphile_worker._private_jobs set run_at = now() where key = ${`shop-order:${shopOrderId}`}`.execute(
    t.db,
  );
}

const shopDeps = () => ({ db: t.db, config: t.config, mfaCipher: t.runtime.deps.mfaCipher });

describe('connecting a Shopify store', () => {
  it('mints a token with the app before saving, and never answers, audits or keeps the credentials in clear', async () => {
    const merchant = await openMerchant();
    const shop = `check-${merchant.n}.myshopify.com`;
    const app = appOf(`c${merchant.n}`);
    shopify.addShop(shop, app, 'Checked Store');
    const attempt = (admin: Headers, fields: Record<string, string>) =>
      call<ErrorResponse>('PUT', '/api/shops/shopify', admin, {
        shop,
        ...app,
        virtualBptId: merchant.vbpt.id,
        ...fields,
      });
    const wrongSecret = await attempt(merchant.admin, { clientSecret: 'shpss_not_the_right_secret_000' });
    expect([wrongSecret.status, wrongSecret.body.code]).toEqual([400, 'ShopConnectionFailed']);
    expect(wrongSecret.body.message).toContain('install the app on the store');
    // The app of another store, not installed on this one: Shopify answers app_not_installed.
    const elsewhere = appOf(`e${merchant.n}`);
    shopify.addShop(`elsewhere-${merchant.n}.myshopify.com`, elsewhere, 'Elsewhere');
    expect((await attempt(merchant.admin, elsewhere)).body.code).toBe('ShopConnectionFailed');
    expect(shopify.grants.filter((grant) => grant.shop === shop).map((grant) => grant.status)).toEqual([400, 400]);
    expect((await call('GET', '/api/shops/shopify', merchant.admin)).body).toEqual({ connection: null });

    for (const domain of ['evil.example.com', 'x.myshopify.com.evil.com', '-x.myshopify.com', 'a/b.myshopify.com']) {
      expect((await attempt(merchant.admin, { shop: domain })).status, domain).toBe(400);
    }
    expect((await attempt(merchant.admin, { clientId: 'short' })).body.code).toBe('InvalidInput');

    const usd = await openMerchant('USD');
    const otherCurrency = await call<ErrorResponse>('PUT', '/api/shops/shopify', usd.admin, {
      shop,
      ...app,
      virtualBptId: usd.vbpt.id,
    });
    expect([otherCurrency.status, otherCurrency.body.code]).toEqual([400, 'InvalidCurrency']);

    const saved = await attempt(merchant.admin, { shop: shop.toUpperCase() });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body).toMatchObject({
      platform: 'shopify',
      shop,
      shopName: 'Checked Store',
      virtualBptId: merchant.vbpt.id,
      entryUrl: `https://pay.example.com/api/public/shopify/pay?shop=${shop}&order=`,
    });
    // Every GraphQL call named the pinned version, with a token the grant minted.
    expect(shopify.calls.filter((c) => c.shop === shop).every((c) => c.status === 200)).toBe(true);
    const read = await t.app.inject({ method: 'GET', url: '/api/shops/shopify', headers: merchant.admin });
    expect(read.json()).toEqual({ connection: saved.body });
    const stored = await t.db
      .selectFrom('shop_connections')
      .selectAll()
      .where('shop', '=', shop)
      .executeTakeFirstOrThrow();
    expect(stored.client_id_sealed).not.toBeNull();
    expect(stored.access_token_sealed).not.toBeNull();
    const audit = await listAuditEntries(t.db, { organizationId: merchant.organization.id });
    expect(audit.map((entry) => entry.action)).toContain('settings.shop_connected');
    for (const text of [read.body, JSON.stringify(stored), JSON.stringify(audit)]) {
      expect(text).not.toContain(app.clientSecret);
      expect(text).not.toContain(app.clientId);
      expect(text).not.toContain('shpat_');
    }

    // A store belongs to one organization.
    const other = await openMerchant();
    const taken = await call<ErrorResponse>('PUT', '/api/shops/shopify', other.admin, {
      shop,
      ...app,
      virtualBptId: other.vbpt.id,
    });
    expect([taken.status, taken.body.code]).toEqual([409, 'ShopTaken']);

    expect((await call('DELETE', '/api/shops/shopify', merchant.admin)).status).toBe(204);
    expect((await call('GET', '/api/shops/shopify', merchant.admin)).body).toEqual({ connection: null });
    expect((await call('DELETE', '/api/shops/shopify', merchant.admin)).status).toBe(204);
  });
});

describe("a Shopify store's Admin API token", () => {
  /** A pending order of 5.00 GTQ in the store; answers its numeric id. */
  const newOrder = (shop: string, name: string) =>
    shopify.addOrder(shop, { name, amount: '5.00', currencyCode: 'GTQ', statusPageUrl: `https://${shop}/orders/x` });
  const grantsOf = (shop: string) =>
    shopify.grants.filter((grant) => grant.shop === shop && grant.status === 200).length;

  it('is kept and reused, and minted again before its 24 hours run out', async () => {
    const merchant = await openMerchant();
    const { shop } = await connectShopify(merchant);
    expect(grantsOf(shop)).toBe(1);
    expect((await openPayLink(`shop=${shop}&order=${newOrder(shop, '#1')}`)).statusCode).toBe(303);
    expect(grantsOf(shop)).toBe(1);
    // 23 h 30 min later the token still works for half an hour: Rayo does not wait for it to lapse.
    shopify.advanceClock(23.5 * 60 * 60 * 1000);
    const row = await t.db
      .selectFrom('shop_connections')
      .selectAll()
      .where('shop', '=', shop)
      .executeTakeFirstOrThrow();
    await t.db
      .updateTable('shop_connections')
      .set({ access_token_expires_at: new Date(Date.now() + 30 * 60 * 1000) })
      .where('id', '=', row.id)
      .execute();
    expect((await openPayLink(`shop=${shop}&order=${newOrder(shop, '#2')}`)).statusCode).toBe(303);
    expect(grantsOf(shop)).toBe(2);
    expect(shopify.calls.filter((c) => c.shop === shop && c.status === 401)).toHaveLength(0);
    const refreshed = await t.db
      .selectFrom('shop_connections')
      .selectAll()
      .where('id', '=', row.id)
      .executeTakeFirstOrThrow();
    expect(refreshed.access_token_sealed).not.toBe(row.access_token_sealed);
    expect(refreshed.access_token_expires_at?.getTime()).toBeGreaterThan(Date.now() + 23 * 60 * 60 * 1000);
  });

  it('is minted again once when Shopify answers 401, and a second 401 is not retried in a loop', async () => {
    const merchant = await openMerchant();
    const { shop, app } = await connectShopify(merchant);
    const order = newOrder(shop, '#7');
    shopify.revokeTokens(shop);
    const opened = await openPayLink(`shop=${shop}&order=${order}`);
    expect(opened.statusCode, opened.body).toBe(303);
    expect(
      shopify.calls
        .filter((c) => c.shop === shop)
        .map((c) => c.status)
        .slice(-2),
    ).toEqual([401, 200]);
    expect(grantsOf(shop)).toBe(2);

    // The app's secret rotated in the Dev Dashboard and not yet saved in Rayo: one new grant is
    // tried, Shopify refuses it, and the shopper sees a page, not a 500.
    shopify.revokeTokens(shop);
    shopify.addShop(
      shop,
      { clientId: app.clientId, clientSecret: 'shpss_rotated_secret_0123456789' },
      `Store ${merchant.n}`,
    );
    const before = shopify.grants.length;
    const other = newOrder(shop, '#8');
    const refused = await openPayLink(`shop=${shop}&order=${other}`);
    expect(refused.statusCode).toBe(503);
    expect(shopify.grants.length - before).toBe(1);
  });

  it('is throttled like any Shopify call: the job retries it later', async () => {
    const merchant = await openMerchant();
    const { shop } = await connectShopify(merchant);
    shopify.throttleNext(1);
    const order = newOrder(shop, '#9');
    const throttled = await openPayLink(`shop=${shop}&order=${order}`);
    expect(throttled.statusCode).toBe(503);
    expect((await openPayLink(`shop=${shop}&order=${order}`)).statusCode).toBe(303);
  });

  it('of a store saved with a legacy custom app token is used as it is', async () => {
    const merchant = await openMerchant();
    const { shop } = await connectShopify(merchant);
    // A row as the legacy custom-app connection left it: the static token in secret_sealed, no client id.
    const row = await t.db
      .selectFrom('shop_connections')
      .selectAll()
      .where('shop', '=', shop)
      .executeTakeFirstOrThrow();
    const minted = t.runtime.deps.mfaCipher.open(row.access_token_sealed as string, `shop-access-token:${row.id}`);
    await t.db
      .updateTable('shop_connections')
      .set({
        client_id_sealed: null,
        access_token_sealed: null,
        access_token_expires_at: null,
        secret_sealed: t.runtime.deps.mfaCipher.seal(minted, `shop:${row.id}`),
      })
      .where('id', '=', row.id)
      .execute();
    const before = shopify.grants.length;
    const order = newOrder(shop, '#10');
    expect((await openPayLink(`shop=${shop}&order=${order}`)).statusCode).toBe(303);
    expect(shopify.grants.length).toBe(before);
  });
});

describe("a Shopify order's 'Complete payment' link", () => {
  it('opens one checkout per order, priced from Shopify and not from the link', async () => {
    const merchant = await openMerchant();
    const { shop } = await connectShopify(merchant);
    const order = shopify.addOrder(shop, {
      name: '#1001',
      amount: '73.0',
      currencyCode: 'GTQ',
      statusPageUrl: `https://${shop}/orders/abc/authenticate?key=k`,
    });
    const first = await openPayLink(`shop=${shop}&order=${order}&amount=0.01`);
    expect(first.statusCode, first.body).toBe(303);
    const id = checkoutIdOf(first.headers.location);
    const second = await openPayLink(`shop=${shop}&order=gid://shopify/Order/${order}`);
    expect(checkoutIdOf(second.headers.location)).toBe(id);

    const checkout = (await call<PublicCheckout>('GET', `/api/public/checkouts/${id}`)).body;
    expect(checkout).toMatchObject({
      kind: 'store',
      status: 'awaiting_payment',
      amount: { currency: 'GTQ', value: '73.00' },
      description: `Store ${merchant.n} #1001`,
    });
    expect(await t.db.selectFrom('shop_orders').select('id').where('checkout_id', '=', id).execute()).toHaveLength(1);
  });

  it('answers a clear page for a paid order, an unknown order or shop, never a checkout', async () => {
    const merchant = await openMerchant();
    const { shop } = await connectShopify(merchant);
    const paid = shopify.addOrder(shop, {
      name: '#1002',
      amount: '0.0',
      currencyCode: 'GTQ',
      statusPageUrl: 'https://x',
      financialStatus: 'PAID',
    });
    const paidPage = await openPayLink(`shop=${shop}&order=${paid}`);
    expect(paidPage.statusCode).toBe(409);
    expect(paidPage.headers['content-type']).toContain('text/html');
    expect(paidPage.body).toContain('This order is already paid.');
    const spanish = await t.app.inject({
      method: 'GET',
      url: `/api/public/shopify/pay?shop=${shop}&order=${paid}`,
      headers: { accept: BROWSER_ACCEPT, 'accept-language': 'es-GT,es;q=0.9' },
    });
    expect(spanish.body).toContain('Este pedido ya está pagado.');
    // A program calling the link gets the API's JSON error.
    const program = await t.app.inject({ method: 'GET', url: `/api/public/shopify/pay?shop=${shop}&order=${paid}` });
    expect([program.statusCode, program.json<ErrorResponse>().code]).toEqual([409, 'ShopOrderNotPayable']);
    expect((await openPayLink(`shop=${shop}&order=999`)).statusCode).toBe(404);
    expect((await openPayLink('shop=nobody.myshopify.com&order=1')).statusCode).toBe(404);
    expect((await openPayLink(`shop=${shop}&order=abc`)).statusCode).toBe(404);
    expect((await openPayLink('shop=http://127.0.0.1&order=1')).statusCode).toBe(404);
  });

  it('marks the order paid once after payment, retrying when Shopify fails the first attempt', async () => {
    const merchant = await openMerchant();
    const { shop } = await connectShopify(merchant);
    const order = shopify.addOrder(shop, {
      name: '#1003',
      amount: '10.00',
      currencyCode: 'GTQ',
      statusPageUrl: `https://${shop}/orders/1003`,
    });
    const id = checkoutIdOf((await openPayLink(`shop=${shop}&order=${order}`)).headers.location);
    shopify.failNextMarks(1);
    await payCheckout(id);
    const row = await shopOrderOf(id);
    const failed = await waitFor(async () => {
      const current = await shopOrderOf(id);
      return current.attempts >= 1 ? current : undefined;
    });
    expect(failed).toMatchObject({ marked_paid_at: null, last_error: 'Shopify answered HTTP 503' });
    await makeRetryDue(row.id);
    const marked = await waitFor(async () => {
      const current = await shopOrderOf(id);
      return current.marked_paid_at ? current : undefined;
    });
    expect(marked).toMatchObject({ attempts: 2, last_error: null });
    expect(shopify.marks.filter((mark) => mark.id === `gid://shopify/Order/${order}`)).toHaveLength(1);
    expect(shopify.order(order)?.financialStatus).toBe('PAID');

    // A second run of the job after success does nothing.
    await markShopOrderPaid(shopDeps(), row.id);
    expect(shopify.marks.filter((mark) => mark.id === `gid://shopify/Order/${order}`)).toHaveLength(1);
    // The shopper returns to the order status page; the link now shows the paid checkout.
    const shown = (await call<PublicCheckout>('GET', `/api/public/checkouts/${id}`)).body;
    expect(shown).toMatchObject({ status: 'paid', storeNotified: true, redirectUrl: `https://${shop}/orders/1003` });
    expect(checkoutIdOf((await openPayLink(`shop=${shop}&order=${order}`)).headers.location)).toBe(id);
  });

  it('does not mark twice when the answer to a mark was lost: the retry reads the order first', async () => {
    const merchant = await openMerchant();
    const { shop } = await connectShopify(merchant);
    const order = shopify.addOrder(shop, {
      name: '#1004',
      amount: '12.50',
      currencyCode: 'GTQ',
      statusPageUrl: `https://${shop}/orders/1004`,
    });
    const id = checkoutIdOf((await openPayLink(`shop=${shop}&order=${order}`)).headers.location);
    shopify.loseNextMarkAnswers(1);
    await payCheckout(id);
    const row = await waitFor(async () => {
      const current = await shopOrderOf(id);
      return current.attempts >= 1 ? current : undefined;
    });
    expect(row.marked_paid_at).toBeNull();
    await makeRetryDue(row.id);
    await waitFor(async () => (await shopOrderOf(id)).marked_paid_at ?? undefined);
    expect(shopify.marks.filter((mark) => mark.id === `gid://shopify/Order/${order}`)).toHaveLength(1);
  });
});

describe('Ecwid', () => {
  const SECRET = 'Ecw1dS3cretKey16-and-the-rest';

  async function connectEcwid(merchant: Awaited<ReturnType<typeof openMerchant>>) {
    const storeId = String(1000 + merchant.n);
    ecwid.addStore(storeId, `secret_token${storeId}`, `Ecwid Store ${storeId}`);
    const saved = await call<ShopConnection>('PUT', '/api/shops/ecwid', merchant.admin, {
      storeId,
      clientSecret: SECRET,
      secretToken: `secret_token${storeId}`,
      virtualBptId: merchant.vbpt.id,
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body.entryUrl).toBe(`https://pay.example.com/api/ecwid/payment?storeId=${storeId}`);
    expect(saved.body.shopName).toBe(`Ecwid Store ${storeId}`);
    return storeId;
  }

  async function storeRows(storeId: string) {
    const orders = await t.db
      .selectFrom('shop_orders')
      .innerJoin('shop_connections', 'shop_connections.id', 'shop_orders.connection_id')
      .select(['shop_orders.checkout_id'])
      .where('shop_connections.shop', '=', storeId)
      .execute();
    const checkouts = await t.db
      .selectFrom('checkouts')
      .select('id')
      .where(sql<boolean>`metadata->>'shop' = ${storeId}`)
      .execute();
    return { orders: orders.length, checkouts: checkouts.length };
  }

  it('checks the store id and the app with Ecwid before saving, and keeps neither secret in an answer', async () => {
    const merchant = await openMerchant();
    const storeId = String(5000 + merchant.n);
    ecwid.addStore(storeId, `secret_right${storeId}`, 'Checked Ecwid Store');
    const attempt = (fields: Record<string, string>) =>
      call<ErrorResponse>('PUT', '/api/shops/ecwid', merchant.admin, {
        storeId,
        clientSecret: SECRET,
        secretToken: `secret_right${storeId}`,
        virtualBptId: merchant.vbpt.id,
        ...fields,
      });
    // A token of another store's app, a store id Ecwid does not know, a token without its prefix.
    const wrongToken = await attempt({ secretToken: 'secret_someoneelse1' });
    expect(wrongToken.status).toBe(400);
    expect(wrongToken.body.code).toBe('ShopConnectionFailed');
    expect((await attempt({ storeId: '987654321' })).body.code).toBe('ShopConnectionFailed');
    expect((await attempt({ secretToken: 'public_abcdefghij' })).body.code).toBe('InvalidInput');
    expect((await call('GET', '/api/shops/ecwid', merchant.admin)).body).toEqual({ connection: null });
    const saved = await attempt({});
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(JSON.stringify(saved.body)).not.toContain(SECRET);
    expect(JSON.stringify(saved.body)).not.toContain('secret_right');
    const row = await t.db
      .selectFrom('shop_connections')
      .selectAll()
      .where('shop', '=', storeId)
      .executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain(SECRET);
    expect(JSON.stringify(row)).not.toContain('secret_right');
  });

  it('a forged payment request changes nothing: legacy data (even with a flipped IV) and a changed enc_data open no checkout', async () => {
    const merchant = await openMerchant();
    const storeId = await connectEcwid(merchant);
    const json = JSON.stringify({ lang: 'en', ...JSON.parse(paymentRequest(storeId, 'transaction_forged', 25.5)) });
    const cbc = ecwidEncryptCbc(json, SECRET);
    const bytes = Buffer.from(cbc.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
    // A bit of the IV flips the same bit of the first block: `{"lang":"en"` decrypts as
    // `{"lang":"an"`, still a well-formed request, which the CBC field cannot tell apart.
    (bytes[9] as number) ^= 0x04;
    const flippedCbc = bytes.toString('base64').replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
    const gcm = ecwidEncryptGcm(json, SECRET);
    const gcmBytes = Buffer.from(gcm.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
    (gcmBytes[12] as number) ^= 0x04;
    const flippedGcm = gcmBytes.toString('base64').replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
    const forgeries: Array<Record<string, string>> = [
      { data: cbc },
      { data: flippedCbc },
      { enc_data: flippedGcm },
      { enc_data: flippedGcm, data: cbc },
    ];
    for (const fields of forgeries) {
      const refused = await post(storeId, fields);
      expect(refused.statusCode, refused.body).toBe(400);
      expect(refused.body).toContain('data-code="InvalidShopPayload"');
    }
    expect(await storeRows(storeId)).toEqual({ orders: 0, checkouts: 0 });
    // Ecwid's real form carries both fields: enc_data alone decides, whatever data says.
    const both = await post(storeId, { enc_data: gcm, data: flippedCbc });
    expect(both.statusCode, both.body).toBe(303);
    expect(await storeRows(storeId)).toEqual({ orders: 1, checkouts: 1 });
  });

  function paymentRequest(storeId: string, reference: string, total: number) {
    return JSON.stringify({
      storeId: Number(storeId),
      returnUrl: `https://app.ecwid.com/custompaymentapps/${storeId}?orderId=${reference}&clientId=rayo`,
      token: `secret_token${storeId}`,
      lang: 'en',
      merchantAppSettings: {},
      cart: {
        currency: 'GTQ',
        order: { id: 'XJ1', orderNumber: 42, referenceTransactionId: reference, total, paymentStatus: 'INCOMPLETE' },
      },
    });
  }

  async function post(storeId: string, fields: Record<string, string>) {
    return t.app.inject({
      method: 'POST',
      url: `/api/ecwid/payment?storeId=${storeId}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: BROWSER_ACCEPT },
      payload: new URLSearchParams(fields).toString(),
    });
  }

  it('opens enc_data, one checkout per referenceTransactionId, and refuses what does not open', async () => {
    const merchant = await openMerchant();
    const storeId = await connectEcwid(merchant);
    const read = await t.app.inject({ method: 'GET', url: '/api/shops/ecwid', headers: merchant.admin });
    expect(read.body).not.toContain(SECRET);

    const gcm = await post(storeId, {
      enc_data: ecwidEncryptGcm(paymentRequest(storeId, 'transaction_1', 25.5), SECRET),
    });
    expect(gcm.statusCode, gcm.body).toBe(303);
    const id = checkoutIdOf(gcm.headers.location);
    const again = await post(storeId, {
      enc_data: ecwidEncryptGcm(paymentRequest(storeId, 'transaction_1', 25.5), SECRET),
    });
    expect(checkoutIdOf(again.headers.location)).toBe(id);
    const checkout = (await call<PublicCheckout>('GET', `/api/public/checkouts/${id}`)).body;
    expect(checkout.amount).toEqual({ currency: 'GTQ', value: '25.50' });

    const second = await post(storeId, {
      enc_data: ecwidEncryptGcm(paymentRequest(storeId, 'transaction_2', 7), SECRET),
    });
    expect(second.statusCode).toBe(303);
    expect(checkoutIdOf(second.headers.location)).not.toBe(id);

    const good = ecwidEncryptGcm(paymentRequest(storeId, 'transaction_3', 5), SECRET);
    const refusals = [
      await post(storeId, {
        enc_data: ecwidEncryptGcm(paymentRequest(storeId, 'transaction_3', 5), 'WrongSecretKey16-xxxx'),
      }),
      await post(storeId, { enc_data: good.slice(0, -10) }),
      await post(storeId, { enc_data: 'garbage!!' }),
      await post(storeId, { data: good }),
      await post(storeId, {}),
      await post('99999999', { enc_data: good }),
      // Another store's request posted to this store's URL.
      await post(storeId, { enc_data: ecwidEncryptGcm(paymentRequest('7', 'transaction_3', 5), SECRET) }),
    ];
    for (const refused of refusals) {
      expect(refused.statusCode, refused.body).toBe(400);
      expect(refused.headers['content-type']).toContain('text/html');
    }
    const garbledJson = await t.app.inject({
      method: 'POST',
      url: `/api/ecwid/payment?storeId=${storeId}`,
      headers: { 'content-type': 'application/json' },
      payload: '{"enc_data": 5',
    });
    expect(garbledJson.statusCode).toBe(400);
  });

  it('PUTs PAID to Ecwid once after payment, retrying a failure, and returns the shopper to returnUrl', async () => {
    const merchant = await openMerchant();
    const storeId = await connectEcwid(merchant);
    const reference = `transaction_${merchant.n}99`;
    const id = checkoutIdOf(
      (await post(storeId, { enc_data: ecwidEncryptGcm(paymentRequest(storeId, reference, 30), SECRET) })).headers
        .location,
    );
    ecwid.failNextUpdates(1);
    await payCheckout(id);
    const row = await waitFor(async () => {
      const current = await shopOrderOf(id);
      return current.attempts >= 1 ? current : undefined;
    });
    expect(row.last_error).toBe('Ecwid answered HTTP 500');
    // Paid, but Ecwid does not know yet: the page holds the way back until it does.
    expect((await call<PublicCheckout>('GET', `/api/public/checkouts/${id}`)).body).toMatchObject({
      status: 'paid',
      storeNotified: false,
    });
    await makeRetryDue(row.id);
    await waitFor(async () => (await shopOrderOf(id)).marked_paid_at ?? undefined);
    await markShopOrderPaid(shopDeps(), row.id);
    expect(ecwid.updates.filter((update) => update.orderId === reference)).toEqual([
      { storeId, orderId: reference, body: { paymentStatus: 'PAID' } },
    ]);
    const shown = (await call<PublicCheckout>('GET', `/api/public/checkouts/${id}`)).body;
    expect(shown).toMatchObject({
      status: 'paid',
      storeNotified: true,
      redirectUrl: `https://app.ecwid.com/custompaymentapps/${storeId}?orderId=${reference}&clientId=rayo`,
    });
  });
});
