import { createHmac, randomUUID } from 'node:crypto';
import path from 'node:path';
import { type APIRequestContext, expect, type Page } from '@playwright/test';
import pg from 'pg';
import { runningClusterUrl } from '../../apps/server/src/db/embedded-postgres.ts';
import { E2E_DATA_DIR } from '../playwright.config.ts';
import { payCheckoutOnScreen } from '../tests/support.ts';
import { missingPrerequisites } from './prerequisites.ts';
import { MERCHANT_EMAIL, SHOP_TITLE, SHOPPER, type Shop, type ShopOrder, test } from './shop.ts';

// The plugin in a real WordPress 6.8.8 with WooCommerce 10.0.2 (shop.ts), against this run's
// Rayo on its devnet: the shopper orders in Chromium through the block checkout and the classic
// one, pays from the devnet wallet, and the order, its notes and the product's stock are read
// back from WooCommerce. Each project runs it with HPOS on or off.

const missing = missingPrerequisites();
test.skip(missing.length > 0, `the real-shop test needs ${missing.join(', ')}`);

/** WordPress pages render on PHP's built-in server, on a busy machine: slower than Rayo's. */
const shopPage = expect.configure({ timeout: 60_000 });
/**
 * A webhook reaching the shop: on a loaded machine WordPress can take longer than Rayo's 10 s to
 * answer, and Rayo's retries then come after 3, 7, 20 and 55 s.
 */
const DELIVERY_MS = 150_000;

type Delivery = { id: string; endpointId: string; type: string; attempts: number; lastStatus: number | null };

async function addToCart(page: Page, shop: Shop) {
  await page.goto(shop.productUrl);
  await page.getByRole('button', { name: 'Add to cart', exact: true }).click();
  await shopPage(page.getByText('has been added to your cart')).toBeVisible();
}

/** The Checkout block, as WooCommerce made it at installation; ends on Rayo's hosted checkout. */
async function placeWithBlockCheckout(page: Page, shop: Shop): Promise<string> {
  await page.goto(shop.blockCheckoutUrl);
  await shopPage(page.getByLabel('Email address')).toBeVisible();
  await page.getByLabel('Email address').fill(SHOPPER.email);
  await page.getByLabel('First name').fill(SHOPPER.firstName);
  await page.getByLabel('Last name').fill(SHOPPER.lastName);
  await page.getByLabel('Address', { exact: true }).fill(SHOPPER.address);
  await page.getByLabel('City').fill(SHOPPER.city);
  await page.getByLabel('Department').selectOption({ label: SHOPPER.department });
  await expect(page.getByText('Bitcoin (Lightning or on-chain)')).toBeVisible();
  await page.getByRole('button', { name: 'Place Order' }).click();
  return onRayoCheckout(page);
}

/** The `[woocommerce_checkout]` shortcode page; ends on Rayo's hosted checkout. */
async function placeWithClassicCheckout(page: Page, shop: Shop): Promise<string> {
  await page.goto(shop.classicCheckoutUrl);
  await shopPage(page.getByRole('textbox', { name: 'First name' })).toBeVisible();
  await page.getByRole('textbox', { name: 'First name' }).fill(SHOPPER.firstName);
  await page.getByRole('textbox', { name: 'Last name' }).fill(SHOPPER.lastName);
  await page.getByRole('textbox', { name: 'Street address' }).fill(SHOPPER.address);
  await page.getByRole('textbox', { name: /Town \/ City/ }).fill(SHOPPER.city);
  await page.getByRole('combobox', { name: /Department/ }).click();
  await page.getByRole('option', { name: SHOPPER.department }).click();
  await page.getByRole('textbox', { name: /Email address/ }).fill(SHOPPER.email);
  await expect(page.getByText('Bitcoin (Lightning or on-chain)')).toBeVisible();
  // The order review reloads after each field; the button is pressed once it has settled.
  await page.waitForLoadState('networkidle');
  await page.getByRole('button', { name: 'Place order' }).click();
  return onRayoCheckout(page);
}

/** The checkout id of Rayo's hosted checkout the shop sent the shopper to. */
async function onRayoCheckout(page: Page): Promise<string> {
  await page.waitForURL(/\/ecommerce\/checkout\/[0-9a-f-]{36}$/, { timeout: 90_000 });
  return page.url().split('/').pop() ?? '';
}

/** Pays on Rayo, returns to the shop's order-received page and answers the order's id. */
async function payAndReturn(page: Page, request: APIRequestContext): Promise<number> {
  await payCheckoutOnScreen(request, page);
  await page.getByRole('link', { name: 'Return to the store' }).click();
  await shopPage(page.getByText('Thank you. Your order has been received.')).toBeVisible();
  const id = /\/order-received\/(\d+)\//.exec(page.url())?.[1];
  expect(id, page.url()).toBeDefined();
  return Number(id);
}

/** The order once `done` holds; on a timeout, the order as last read and the shop's debug log say why. */
async function orderWhen(shop: Shop, id: number, done: (order: ShopOrder) => boolean): Promise<ShopOrder> {
  let order: ShopOrder | undefined;
  await expect
    .poll(
      async () => {
        order = await shop.order(id);
        return done(order) || `${JSON.stringify(order, null, 2)}\n${await shop.debugLog()}`;
      },
      { timeout: DELIVERY_MS, message: `order ${id}` },
    )
    .toBe(true);
  return order as ShopOrder;
}

async function deliveries(request: APIRequestContext, shop: Shop): Promise<Delivery[]> {
  const response = await request.get('/api/webhooks/deliveries?limit=100', {
    headers: { authorization: `Bearer ${shop.rayo.token}` },
  });
  expect(response.ok()).toBe(true);
  return ((await response.json()) as { deliveries: Delivery[] }).deliveries;
}

/**
 * Rayo's Redeliver on the newest delivery of `type` to the shop's endpoint (the tests of a shop
 * run one after the other): the same id and body, signed afresh; waits for the shop's 200.
 */
async function redeliver(request: APIRequestContext, shop: Shop, type = 'checkout.paid'): Promise<void> {
  const delivery = (await deliveries(request, shop)).find(
    (row) => row.type === type && row.endpointId === shop.rayo.endpointId,
  );
  expect(delivery?.lastStatus).toBe(200);
  const response = await request.post(`/api/webhooks/deliveries/${delivery?.id}/redeliver`, {
    headers: { authorization: `Bearer ${shop.rayo.token}` },
  });
  expect(response.status()).toBe(202);
  await expect
    .poll(
      async () => {
        const row = (await deliveries(request, shop)).find((candidate) => candidate.id === delivery?.id);
        return row && row.attempts > (delivery?.attempts ?? 0) ? row.lastStatus : undefined;
      },
      { timeout: DELIVERY_MS, message: 'the redelivery reached the shop' },
    )
    .toBe(200);
}

/**
 * The merchant cancels the paid order, or refunds all of it restocking its items, and WooCommerce
 * puts the stock back; then Rayo delivers the payment again: the order, the stock and the mails
 * sent stay as they were.
 */
async function undoThenRedeliver(
  request: APIRequestContext,
  shop: Shop,
  orderId: number,
  undo: 'cancel' | 'refund',
  stock: number,
): Promise<void> {
  await shop.cli(undo, String(orderId));
  const undone = await shop.order(orderId);
  expect(undone.status).toBe(undo === 'cancel' ? 'cancelled' : 'refunded');
  expect(await shop.stock()).toBe(stock);
  const mails = await shop.mails();
  await redeliver(request, shop);
  expect(await shop.order(orderId)).toEqual(undone);
  expect(await shop.stock()).toBe(stock);
  expect(await shop.mails()).toEqual(mails);
}

/**
 * The merchant refunds part of the order's sale in Rayo, as the Refunds dialog does; answers the
 * refund. The sale is found on the dashboard's list by the order id the store gave it.
 */
async function refundInRayo(
  request: APIRequestContext,
  shop: Shop,
  orderId: number,
  amountMsat: (saleMsat: number) => number,
): Promise<{ id: string; fiatAmount: string }> {
  const headers = { authorization: `Bearer ${shop.rayo.token}` };
  const list = await request.get('/api/dashboard/transactions', { headers });
  expect(list.ok()).toBe(true);
  const sale = (
    (await list.json()) as { transactions: { id: string; sourceName: string; totalMsatCharged: number }[] }
  ).transactions.find((row) => row.sourceName === String(orderId));
  expect(sale, `the sale of order ${orderId}`).toBeDefined();
  const response = await request.post(`/api/transactions/${sale?.id}/refunds`, {
    headers,
    data: { amountMsat: amountMsat(sale?.totalMsatCharged ?? 0), idempotencyKey: randomUUID() },
  });
  expect(response.status(), await response.text()).toBe(200);
  return (await response.json()) as { id: string; fiatAmount: string };
}

/** Rayo's clock moved past the checkout's end: the expiry job (every 5 s) then expires it. */
async function runOutOfTime(checkoutId: string): Promise<void> {
  const url = await runningClusterUrl(path.resolve(import.meta.dirname, '../..', E2E_DATA_DIR));
  if (!url) throw new Error('The e2e server’s PostgreSQL is not running');
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('update checkouts set expires_at = now() where id = $1', [checkoutId]);
  } finally {
    await client.end();
  }
}

/**
 * Deliveries Rayo did not sign for this endpoint, about the order's checkout: each is refused
 * (401) and the order stays as it was.
 */
async function refuseForgedPayments(shop: Shop, orderId: number, checkoutId: string): Promise<void> {
  const before = await shop.order(orderId);
  const body = JSON.stringify({
    id: randomUUID(),
    type: 'checkout.paid',
    createdAt: new Date().toISOString(),
    data: {
      checkoutId,
      kind: 'store',
      orderId: String(orderId),
      status: 'paid',
      amount: { currency: 'GTQ', value: '73.00' },
      amountSats: 10_000,
      paidVia: 'lightning',
      late: false,
      metadata: {},
    },
  });
  const now = Math.floor(Date.now() / 1000);
  const sign = (secret: string, at: number) =>
    `t=${at},v1=${createHmac('sha256', secret).update(`${at}.${body}`).digest('hex')}`;
  const attempts = {
    'no signature': { signature: '', body },
    'another secret': { signature: sign('whsec_not_this_endpoints', now), body },
    'a body changed after signing': { signature: sign(shop.rayo.secret, now), body: body.replace('73.00', '0.01') },
    'a signature ten minutes old': { signature: sign(shop.rayo.secret, now - 600), body },
  };
  for (const [what, attempt] of Object.entries(attempts)) {
    const response = await fetch(shop.webhookUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'rayo-signature': attempt.signature },
      body: attempt.body,
    });
    expect(response.status, what).toBe(401);
    expect(await response.json(), what).toMatchObject({ code: 'BadSignature' });
  }
  expect(await shop.order(orderId)).toEqual(before);
}

/** What WooCommerce mails once an order is paid: the merchant's "new order" and the shopper's receipt. */
function mailsOnPayment(orderId: number) {
  return [
    { to: [MERCHANT_EMAIL], subject: `[${SHOP_TITLE}]: You've got a new order: #${orderId}` },
    { to: [SHOPPER.email], subject: `Your ${SHOP_TITLE} order has been received!` },
  ];
}

function paidNote(checkoutId: string): string {
  return `Paid 73.00 GTQ with bitcoin (lightning) on Rayo checkout ${checkoutId}.`;
}

function count(notes: string[], matches: (note: string) => boolean): number {
  return notes.filter(matches).length;
}

test.afterEach(async ({ shop }) => {
  // WP_DEBUG logs every PHP warning, notice and deprecation of the shop's requests here.
  expect(await shop.debugLog()).toBe('');
});

test('block checkout: paid once through the devnet; a payment redelivered after a cancel changes nothing', async ({
  page,
  request,
  shop,
}) => {
  const stockBefore = await shop.stock();
  const mailsBefore = (await shop.mails()).length;
  await addToCart(page, shop);
  const checkoutId = await placeWithBlockCheckout(page, shop);
  const orderId = await payAndReturn(page, request);

  // The note is the last thing the plugin writes on checkout.paid.
  const paid = await orderWhen(shop, orderId, (order) => order.notes.includes(paidNote(checkoutId)));
  expect(paid).toMatchObject({
    status: 'processing',
    storage: shop.hpos ? 'hpos' : 'posts',
    transactionId: checkoutId,
    checkoutId,
    attempt: '1',
  });
  expect(paid.datePaid).not.toBeNull();
  expect(count(paid.notes, (note) => note === `Awaiting payment on Rayo checkout ${checkoutId}.`)).toBe(1);
  expect(count(paid.notes, (note) => note === paidNote(checkoutId))).toBe(1);
  expect(count(paid.notes, (note) => note.startsWith('Stock levels reduced'))).toBe(1);
  expect(await shop.stock()).toBe(stockBefore - 1);
  expect((await shop.mails()).slice(mailsBefore)).toEqual(mailsOnPayment(orderId));

  // A third of the sale refunded in Rayo becomes WooCommerce's refund of the order, once, however
  // often it is delivered; the gateway is not asked to pay it again (it says it cannot refund).
  const refund = await refundInRayo(request, shop, orderId, (msat) => Math.floor(msat / 3000) * 1000);
  const refunded = await orderWhen(shop, orderId, (order) => order.refunds.length > 0);
  expect(refunded.refunds).toEqual([
    {
      amount: refund.fiatAmount,
      reason: `Refunded with bitcoin in Rayo (refund ${refund.id}).`,
      rayoRefundId: refund.id,
    },
  ]);
  expect(refunded.status).toBe('processing');
  await redeliver(request, shop, 'checkout.refunded');
  expect(await shop.order(orderId)).toEqual(refunded);
  expect(await shop.stock()).toBe(stockBefore - 1);

  await undoThenRedeliver(request, shop, orderId, 'cancel', stockBefore);
});

test('classic checkout: forged deliveries are refused, an expired checkout is paid on a second attempt, a refunded order is not paid again', async ({
  page,
  request,
  shop,
}) => {
  const stockBefore = await shop.stock();
  const mailsBefore = (await shop.mails()).length;
  await addToCart(page, shop);
  const first = await placeWithClassicCheckout(page, shop);
  const [orderId = 0] = await shop.cli<number[]>('orders');
  expect(await shop.order(orderId)).toMatchObject({ status: 'pending', checkoutId: first });
  await refuseForgedPayments(shop, orderId, first);

  // The shopper lets Rayo's checkout run out: the order stays payable, with a note.
  await runOutOfTime(first);
  await expect(page.getByRole('status', { name: 'This checkout expired' })).toBeVisible({ timeout: 60_000 });
  const expired = await orderWhen(shop, orderId, (order) =>
    order.notes.includes(
      `Rayo checkout ${first} expired unpaid. The order can still be paid: paying again makes a new checkout.`,
    ),
  );
  expect(expired.status).toBe('pending');
  expect(await shop.stock()).toBe(stockBefore);

  // Back in the shop, placing the same cart again resumes the order on a new checkout, and pays it.
  const second = await placeWithClassicCheckout(page, shop);
  expect(second).not.toBe(first);
  expect(await payAndReturn(page, request)).toBe(orderId);
  const paid = await orderWhen(shop, orderId, (order) => order.notes.includes(paidNote(second)));
  expect(paid).toMatchObject({ status: 'processing', transactionId: second, checkoutId: second, attempt: '2' });
  expect(count(paid.notes, (note) => note === `Awaiting payment on Rayo checkout ${first}.`)).toBe(1);
  expect(count(paid.notes, (note) => note === `Awaiting payment on Rayo checkout ${second}.`)).toBe(1);
  expect(count(paid.notes, (note) => note.startsWith('Paid '))).toBe(1);
  expect(await shop.stock()).toBe(stockBefore - 1);
  expect((await shop.mails()).slice(mailsBefore)).toEqual(mailsOnPayment(orderId));

  await undoThenRedeliver(request, shop, orderId, 'refund', stockBefore);
});
