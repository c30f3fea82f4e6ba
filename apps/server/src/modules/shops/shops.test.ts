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
      SHOPIFY_API_URL: shopify.apiUrl,
      ECWID_API_URL: ecwid.apiUrl,
    },
    { jobPollIntervalMs: 100 },
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

async function connectShopify(merchant: Awaited<ReturnType<typeof openMerchant>>) {
  const shop = `store-${merchant.n}.myshopify.com`;
  const token = `shpat_${merchant.n}_0123456789abcdef`;
  shopify.addShop(shop, token, `Store ${merchant.n}`);
  const connected = await call<ShopConnection>('PUT', '/api/shops/shopify', merchant.admin, {
    shop,
    accessToken: token,
    virtualBptId: merchant.vbpt.id,
  });
  expect(connected.status, JSON.stringify(connected.body)).toBe(200);
  return { shop, token };
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
  it('checks the token with Shopify before saving, and never answers or audits it', async () => {
    const merchant = await openMerchant();
    const shop = `check-${merchant.n}.myshopify.com`;
    shopify.addShop(shop, 'shpat_right_token_123', 'Checked Store');
    const wrong = await call<ErrorResponse>('PUT', '/api/shops/shopify', merchant.admin, {
      shop,
      accessToken: 'shpat_wrong_token_123',
      virtualBptId: merchant.vbpt.id,
    });
    expect([wrong.status, wrong.body.code]).toEqual([400, 'ShopConnectionFailed']);
    expect((await call('GET', '/api/shops/shopify', merchant.admin)).body).toEqual({ connection: null });

    for (const domain of ['evil.example.com', 'x.myshopify.com.evil.com', '-x.myshopify.com', 'a/b.myshopify.com']) {
      const refused = await call<ErrorResponse>('PUT', '/api/shops/shopify', merchant.admin, {
        shop: domain,
        accessToken: 'shpat_right_token_123',
        virtualBptId: merchant.vbpt.id,
      });
      expect(refused.status, domain).toBe(400);
    }

    const usd = await openMerchant('USD');
    const otherCurrency = await call<ErrorResponse>('PUT', '/api/shops/shopify', usd.admin, {
      shop: `usd-${usd.n}.myshopify.com`,
      accessToken: 'shpat_right_token_123',
      virtualBptId: usd.vbpt.id,
    });
    expect(otherCurrency.status).toBe(400);

    const saved = await call<ShopConnection>('PUT', '/api/shops/shopify', merchant.admin, {
      shop: shop.toUpperCase(),
      accessToken: 'shpat_right_token_123',
      virtualBptId: merchant.vbpt.id,
    });
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({
      platform: 'shopify',
      shop,
      shopName: 'Checked Store',
      virtualBptId: merchant.vbpt.id,
      entryUrl: `https://pay.example.com/api/public/shopify/pay?shop=${shop}&order=`,
    });
    const read = await t.app.inject({ method: 'GET', url: '/api/shops/shopify', headers: merchant.admin });
    expect(read.json()).toEqual({ connection: saved.body });
    expect(read.body).not.toContain('shpat_right_token_123');
    const stored = await t.db
      .selectFrom('shop_connections')
      .select('secret_sealed')
      .where('shop', '=', shop)
      .executeTakeFirstOrThrow();
    expect(stored.secret_sealed).not.toContain('shpat_right_token_123');
    const audit = await listAuditEntries(t.db, { organizationId: merchant.organization.id });
    expect(audit.map((entry) => entry.action)).toContain('settings.shop_connected');
    expect(JSON.stringify(audit)).not.toContain('shpat_right_token_123');

    // A store belongs to one organization.
    const other = await openMerchant();
    const taken = await call<ErrorResponse>('PUT', '/api/shops/shopify', other.admin, {
      shop,
      accessToken: 'shpat_right_token_123',
      virtualBptId: other.vbpt.id,
    });
    expect([taken.status, taken.body.code]).toEqual([409, 'ShopTaken']);

    expect((await call('DELETE', '/api/shops/shopify', merchant.admin)).status).toBe(204);
    expect((await call('GET', '/api/shops/shopify', merchant.admin)).body).toEqual({ connection: null });
    expect((await call('DELETE', '/api/shops/shopify', merchant.admin)).status).toBe(204);
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
    const saved = await call<ShopConnection>('PUT', '/api/shops/ecwid', merchant.admin, {
      storeId,
      clientSecret: SECRET,
      virtualBptId: merchant.vbpt.id,
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body.entryUrl).toBe(`https://pay.example.com/api/ecwid/payment?storeId=${storeId}`);
    ecwid.addStore(storeId, `secret_token_${storeId}`);
    return storeId;
  }

  function paymentRequest(storeId: string, reference: string, total: number) {
    return JSON.stringify({
      storeId: Number(storeId),
      returnUrl: `https://app.ecwid.com/custompaymentapps/${storeId}?orderId=${reference}&clientId=rayo`,
      token: `secret_token_${storeId}`,
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

  it('opens enc_data and legacy data, one checkout per referenceTransactionId, and refuses what does not open', async () => {
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

    const legacy = await post(storeId, { data: ecwidEncryptCbc(paymentRequest(storeId, 'transaction_2', 7), SECRET) });
    expect(legacy.statusCode).toBe(303);
    expect(checkoutIdOf(legacy.headers.location)).not.toBe(id);

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
