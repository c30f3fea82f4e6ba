import type {
  Account,
  Bpt,
  ErrorResponse,
  PaymentLink,
  PublicCheckout,
  TransactionPage,
  VirtualBpt,
} from '@rayo/shared';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSse } from '../../../test/sse.ts';
import {
  bearer,
  createTestApp,
  createTestOrganization,
  createTestUser,
  signIn,
  type TestApp,
} from '../../../test/test-app.ts';
import { waitFor } from '../../../test/wait-for.ts';
import { createCheckout, expireDueCheckouts } from './checkouts.service.ts';

type Headers = { authorization: string };

let t: TestApp;
let baseUrl: string;

beforeAll(async () => {
  // GTQ at Q730,000 per bitcoin: Q73.00 is 10,000 sats.
  t = await createTestApp({ FIXED_RATES: 'GTQ=730000,USD=95000' }, { jobs: true });
  baseUrl = await t.app.listen({ host: '127.0.0.1', port: 0 });
});
afterAll(() => t.close());

async function call<T>(method: 'GET' | 'POST' | 'DELETE', url: string, headers?: Headers, payload?: object) {
  const response = await t.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
  return { status: response.statusCode, body: response.body ? (response.json() as T) : (undefined as T) };
}

async function openShop() {
  const organization = await createTestOrganization(t.db, 'Café Quetzal');
  const user = await createTestUser(t.db, { role: 'admin', organizationId: organization.id });
  const admin = bearer((await signIn(t.app, user.email, user.password)).accessToken);
  const account = (await call<Account>('POST', '/api/accounts', admin, { name: 'Online' })).body;
  const other = (await call<Account>('POST', '/api/accounts', admin, { name: 'Terrace' })).body;
  return { organization, admin, account, other };
}

type Shop = Awaited<ReturnType<typeof openShop>>;

async function addBpt(shop: Shop, account = shop.account, currency = 'GTQ') {
  const payload = { name: `Till ${account.name}`, accountId: account.id, currency };
  return (await call<Bpt>('POST', '/api/bpts', shop.admin, payload)).body;
}

async function addVirtualBpt(shop: Shop, bpt: Bpt, name = 'Web shop') {
  const response = await call<VirtualBpt>('POST', '/api/virtual-bpts', shop.admin, { name, bptId: bpt.id });
  expect(response.status).toBe(201);
  return response.body;
}

async function addLink(
  shop: Shop,
  vbpt: VirtualBpt,
  payload: object = { description: 'Cake', amount: '73', currency: 'GTQ' },
) {
  return call<PaymentLink>('POST', `/api/virtual-bpts/${vbpt.id}/payment-links`, shop.admin, payload);
}

async function readPublic(id: string) {
  return call<PublicCheckout>('GET', `/api/public/checkouts/${id}`);
}

async function pay(paymentRequest: string) {
  const response = await call('POST', '/api/devnet/pay', undefined, { paymentRequest });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
}

async function ledgerRowsOf(checkoutId: string) {
  return t.db
    .selectFrom('transactions')
    .innerJoin('invoices', 'invoices.id', 'transactions.invoice_id')
    .select(['transactions.source', 'transactions.virtual_bpt_id', 'transactions.account_id', 'invoices.id'])
    .where('invoices.source_id', '=', checkoutId)
    .execute();
}

describe('virtual BPTs', () => {
  it('needs a BPT first, then sells for the chosen BPT; admins create and delete', async () => {
    const shop = await openShop();
    const refused = await call<ErrorResponse>('POST', '/api/virtual-bpts', shop.admin, {
      name: 'Web',
      bptId: '00000000-0000-4000-8000-000000000000',
    });
    expect([refused.status, refused.body.code, refused.body.message]).toEqual([
      409,
      'BptRequired',
      'A virtual BPT needs a BPT first',
    ]);

    const bpt = await addBpt(shop);
    const unknown = await call<ErrorResponse>('POST', '/api/virtual-bpts', shop.admin, {
      name: 'Web',
      bptId: '00000000-0000-4000-8000-000000000000',
    });
    expect([unknown.status, unknown.body.code]).toEqual([400, 'InvalidInput']);

    const vbpt = await addVirtualBpt(shop, bpt);
    expect(vbpt).toMatchObject({
      name: 'Web shop',
      bptId: bpt.id,
      bptName: bpt.name,
      accountId: shop.account.id,
      accountName: 'Online',
      currency: 'GTQ',
    });
    expect((await call<VirtualBpt[]>('GET', '/api/virtual-bpts', shop.admin)).body).toEqual([vbpt]);

    expect((await call('DELETE', `/api/virtual-bpts/${vbpt.id}`, shop.admin)).status).toBe(204);
    expect((await call('DELETE', `/api/virtual-bpts/${vbpt.id}`, shop.admin)).status).toBe(404);
    expect((await call<VirtualBpt[]>('GET', '/api/virtual-bpts', shop.admin)).body).toEqual([]);
  });

  it('lets managers only read those of their linked accounts, and refuses back office', async () => {
    const shop = await openShop();
    const mine = await addVirtualBpt(shop, await addBpt(shop), 'Linked');
    const theirs = await addVirtualBpt(shop, await addBpt(shop, shop.other), 'Unlinked');
    const manager = await createTestUser(t.db, {
      role: 'manager',
      organizationId: shop.organization.id,
      accountIds: [shop.account.id],
    });
    const headers = bearer((await signIn(t.app, manager.email, manager.password)).accessToken);
    expect((await call<VirtualBpt[]>('GET', '/api/virtual-bpts', headers)).body.map((v) => v.id)).toEqual([mine.id]);
    expect((await call('POST', '/api/virtual-bpts', headers, { name: 'X', bptId: mine.bptId })).status).toBe(403);
    expect((await call('DELETE', `/api/virtual-bpts/${mine.id}`, headers)).status).toBe(403);
    expect((await call('GET', `/api/virtual-bpts/${mine.id}/payment-links`, headers)).status).toBe(200);
    expect((await call('GET', `/api/virtual-bpts/${theirs.id}/payment-links`, headers)).status).toBe(404);
    expect((await call('GET', `/api/accounts/${shop.other.id}/payment-links`, headers)).status).toBe(404);

    const backOffice = await createTestUser(t.db, { role: 'back_office', organizationId: null });
    const bo = bearer((await signIn(t.app, backOffice.email, backOffice.password)).accessToken);
    expect((await call('GET', '/api/virtual-bpts', bo)).status).toBe(403);
  });
});

describe('payment links', () => {
  it('are created in the BPT currency or sats, refuse a duplicate, list with status and delete', async () => {
    const shop = await openShop();
    const vbpt = await addVirtualBpt(shop, await addBpt(shop));
    const link = await addLink(shop, vbpt);
    expect(link.status).toBe(201);
    expect(link.body).toMatchObject({
      description: 'Cake',
      amount: { currency: 'GTQ', value: '73.00' },
      status: 'awaiting_payment',
      virtualBptName: 'Web shop',
    });

    const duplicate = await addLink(shop, vbpt);
    expect([duplicate.status, (duplicate.body as unknown as ErrorResponse).message]).toEqual([
      409,
      'Link already exists',
    ]);

    const sats = await addLink(shop, vbpt, { description: 'Cake', amount: '5000', currency: 'SAT' });
    expect(sats.body.amount).toEqual({ currency: 'SAT', value: '5000' });
    const usd = await addLink(shop, vbpt, { description: 'Cake', amount: '5', currency: 'USD' });
    expect([usd.status, (usd.body as unknown as ErrorResponse).code]).toEqual([400, 'InvalidCurrency']);
    const tiny = await addLink(shop, vbpt, { description: 'Crumb', amount: '0', currency: 'GTQ' });
    expect(tiny.status).toBe(400);

    const list = (await call<PaymentLink[]>('GET', `/api/virtual-bpts/${vbpt.id}/payment-links`, shop.admin)).body;
    expect(list.map((l) => l.id).sort()).toEqual([link.body.id, sats.body.id].sort());
    const byAccount = (await call<PaymentLink[]>('GET', `/api/accounts/${shop.account.id}/payment-links`, shop.admin))
      .body;
    expect(byAccount.map((l) => l.id).sort()).toEqual([link.body.id, sats.body.id].sort());
    expect((await call<PaymentLink[]>('GET', `/api/accounts/${shop.other.id}/payment-links`, shop.admin)).body).toEqual(
      [],
    );

    expect((await call('DELETE', `/api/payment-links/${link.body.id}`, shop.admin)).status).toBe(204);
    expect((await readPublic(link.body.id)).status).toBe(404);
    // Deleted, it no longer blocks a new link with the same description and amount.
    expect((await addLink(shop, vbpt)).status).toBe(201);
  });

  it('is paid exactly once by Lightning, renews its invoice when one expires, and flags an extra payment', async () => {
    const shop = await openShop();
    const vbpt = await addVirtualBpt(shop, await addBpt(shop));
    const link = (await addLink(shop, vbpt)).body;

    const first = (await readPublic(link.id)).body;
    expect(first).toMatchObject({
      kind: 'payment_link',
      status: 'awaiting_payment',
      description: 'Cake',
      merchant: { name: 'Café Quetzal', logoUrl: null, accentColor: null },
      countryCode: 'GT',
      language: 'en',
      amount: { currency: 'GTQ', value: '73.00' },
      fiatAmount: { currency: 'GTQ', value: '73.00' },
      amountSats: 10_000,
      expiresAt: null,
      redirectUrl: null,
      // Not a shop's order: no store to tell.
      storeNotified: null,
    });
    const oldInvoice = first.invoice;
    if (!oldInvoice) throw new Error('no invoice issued');
    // A payment link's invoice lives 24 hours.
    const life = new Date(oldInvoice.expiresAt).getTime() - Date.now();
    expect(life).toBeGreaterThan(23.9 * 3600_000);
    expect(life).toBeLessThanOrEqual(24 * 3600_000);
    expect((await readPublic(link.id)).body.invoice?.id).toBe(oldInvoice.id);

    // The invoice runs out while the link stays open: the next reader gets a new one.
    await t.db
      .updateTable('invoices')
      .set({ expires_at: sql<Date>`now() - interval '1 second'` })
      .where('id', '=', oldInvoice.id)
      .execute();
    const renewed = (await readPublic(link.id)).body;
    expect(renewed.status).toBe('awaiting_payment');
    expect(renewed.invoice?.id).toBeDefined();
    expect(renewed.invoice?.id).not.toBe(oldInvoice.id);

    const events = await openSse(`${baseUrl}/api/public/checkouts/${link.id}/events`);
    expect(await events.next()).toEqual({ event: 'status', data: { id: link.id, status: 'awaiting_payment' } });
    await pay(renewed.invoice?.paymentRequest ?? '');
    expect(await events.next(10_000)).toEqual({ event: 'status', data: { id: link.id, status: 'paid' } });
    events.close();

    const paid = (await readPublic(link.id)).body;
    expect(paid).toMatchObject({ status: 'paid', paidVia: 'lightning', invoice: null, extraPayment: false });
    expect(paid.amountSats).toBe(10_000);
    const listed = (await call<PaymentLink[]>('GET', `/api/virtual-bpts/${vbpt.id}/payment-links`, shop.admin)).body;
    expect(listed[0]?.status).toBe('paid');
    const ledger = await ledgerRowsOf(link.id);
    expect(ledger).toEqual([
      { source: 'payment_link', virtual_bpt_id: vbpt.id, account_id: shop.account.id, id: renewed.invoice?.id },
    ]);

    // Someone pays the old invoice too: the money is in the ledger, and the link says so.
    await pay(oldInvoice.paymentRequest);
    const flagged = await waitFor(async () => {
      const read = await readPublic(link.id);
      return read.body.extraPayment ? read : undefined;
    });
    expect(flagged.body).toMatchObject({ status: 'paid', extraPayment: true, latePayment: false });
    expect((await ledgerRowsOf(link.id)).length).toBe(2);
    expect(
      (await call<PaymentLink[]>('GET', `/api/virtual-bpts/${vbpt.id}/payment-links`, shop.admin)).body[0],
    ).toMatchObject({ status: 'paid', extraPayment: true });
  });

  it('prices a sats link in sats, worth its fiat at the locked rate', async () => {
    const shop = await openShop();
    const vbpt = await addVirtualBpt(shop, await addBpt(shop));
    const link = (await addLink(shop, vbpt, { description: 'Tip jar', amount: '20000', currency: 'SAT' })).body;
    const read = (await readPublic(link.id)).body;
    expect(read).toMatchObject({
      amount: { currency: 'SAT', value: '20000' },
      amountSats: 20_000,
      fiatAmount: { currency: 'GTQ', value: '146.00' },
    });
    expect(read.invoice?.amountMsat).toBe(20_000_000);
  });
});

describe('store checkouts', () => {
  it('issue invoices that end before the checkout, whatever the milliseconds of its expiry', async () => {
    const shop = await openShop();
    const vbpt = await addVirtualBpt(shop, await addBpt(shop));
    const wholeSecond = Math.floor(Date.now() / 1000) * 1000;
    for (const [index, offsetMs] of [600_001, 600_500, 600_999].entries()) {
      const checkout = await createCheckout(t.runtime.deps, {
        organizationId: shop.organization.id,
        virtualBptId: vbpt.id,
        kind: 'store',
        description: `Order 20${index}`,
        amount: { currency: 'GTQ', minor: 7300n },
        orderId: `20${index}`,
        expiresAt: new Date(wholeSecond + offsetMs),
      });
      const { invoice, expiresAt } = (await readPublic(checkout.id)).body;
      expect(Date.parse(invoice?.expiresAt ?? '')).toBeLessThan(Date.parse(expiresAt ?? ''));
    }
  });

  it('expire with their invoice; a payment that still arrives is recorded and flagged late', async () => {
    const shop = await openShop();
    const vbpt = await addVirtualBpt(shop, await addBpt(shop));
    // The store listens for its checkouts' events (the delivery itself is the webhooks' business).
    await t.db
      .insertInto('webhook_endpoints')
      .values({
        organization_id: shop.organization.id,
        url: 'https://shop.example/hooks',
        secret_sealed: 'x',
        events: ['checkout.paid', 'checkout.expired'],
      })
      .execute();
    const checkout = await createCheckout(t.runtime.deps, {
      organizationId: shop.organization.id,
      virtualBptId: vbpt.id,
      kind: 'store',
      description: 'Order 1001',
      amount: { currency: 'GTQ', minor: 7300n },
      orderId: '1001',
      redirectUrl: 'https://shop.example/thanks',
    });
    // The same order id again is the same checkout.
    const again = await createCheckout(t.runtime.deps, {
      organizationId: shop.organization.id,
      virtualBptId: vbpt.id,
      kind: 'store',
      description: 'Order 1001',
      amount: { currency: 'GTQ', minor: 7300n },
      orderId: '1001',
    });
    expect(again.id).toBe(checkout.id);

    const open = (await readPublic(checkout.id)).body;
    expect(open).toMatchObject({ kind: 'store', status: 'awaiting_payment', orderId: '1001', redirectUrl: null });
    expect(open.expiresAt).not.toBeNull();
    const invoice = open.invoice;
    if (!invoice) throw new Error('no invoice issued');
    expect(new Date(invoice.expiresAt).getTime()).toBeLessThanOrEqual(new Date(open.expiresAt ?? 0).getTime());

    const events = await openSse(`${baseUrl}/api/public/checkouts/${checkout.id}/events`);
    expect((await events.next()).data).toMatchObject({ status: 'awaiting_payment' });
    await t.db
      .updateTable('checkouts')
      .set({ expires_at: sql<Date>`now() - interval '1 second'` })
      .where('id', '=', checkout.id)
      .execute();
    expect(await expireDueCheckouts(t.db)).toBeGreaterThanOrEqual(1);
    expect((await events.next()).data).toMatchObject({ status: 'expired' });
    const expired = (await readPublic(checkout.id)).body;
    expect(expired).toMatchObject({ status: 'expired', invoice: null });

    // The payer's wallet had the invoice already and pays it anyway.
    await pay(invoice.paymentRequest);
    expect((await events.next(10_000)).data).toMatchObject({ status: 'paid' });
    events.close();
    const late = (await readPublic(checkout.id)).body;
    expect(late).toMatchObject({
      status: 'paid',
      latePayment: true,
      extraPayment: false,
      redirectUrl: 'https://shop.example/thanks',
    });
    expect(await ledgerRowsOf(checkout.id)).toEqual([
      { source: 'checkout', virtual_bpt_id: vbpt.id, account_id: shop.account.id, id: invoice.id },
    ]);
    const deliveries = await t.db
      .selectFrom('webhook_deliveries')
      .select(['type', 'payload'])
      .where('organization_id', '=', shop.organization.id)
      .orderBy('created_at')
      .execute();
    expect(deliveries).toMatchObject([
      { type: 'checkout.expired', payload: { checkoutId: checkout.id, orderId: '1001', status: 'expired' } },
      {
        type: 'checkout.paid',
        payload: {
          checkoutId: checkout.id,
          kind: 'store',
          orderId: '1001',
          status: 'paid',
          amount: { currency: 'GTQ', value: '73.00' },
          amountSats: 10_000,
          paidVia: 'lightning',
          late: true,
          metadata: null,
        },
      },
    ]);
  });

  it("say on the merchant's list of sales where each sale came from: the link's name, the store's order id", async () => {
    const shop = await openShop();
    const vbpt = await addVirtualBpt(shop, await addBpt(shop));
    const link = (await addLink(shop, vbpt, { description: 'Pastel de tres leches', amount: '73', currency: 'GTQ' }))
      .body;
    const order = await createCheckout(t.runtime.deps, {
      organizationId: shop.organization.id,
      virtualBptId: vbpt.id,
      kind: 'store',
      description: 'Order 3001, two cakes',
      amount: { currency: 'GTQ', minor: 7300n },
      orderId: '3001',
    });
    for (const id of [link.id, order.id]) {
      await pay((await readPublic(id)).body.invoice?.paymentRequest ?? '');
      await waitFor(async () => (await readPublic(id)).body.status === 'paid');
    }
    const { body } = await call<TransactionPage>('GET', '/api/dashboard/transactions', shop.admin);
    const bySource = Object.fromEntries(body.transactions.map((sale) => [sale.source, sale]));
    expect(bySource.payment_link).toMatchObject({
      sourceName: 'Pastel de tres leches',
      description: '',
      paidVia: 'lightning',
    });
    expect(bySource.checkout).toMatchObject({
      sourceName: '3001',
      description: 'Order 3001, two cakes',
      paidVia: 'lightning',
    });
  });

  it('answers an unknown or malformed id with a clear refusal', async () => {
    const missing = await readPublic('00000000-0000-4000-8000-000000000000');
    expect([missing.status, (missing.body as unknown as ErrorResponse).code]).toEqual([404, 'NotFound']);
    expect((await readPublic('nope')).status).toBe(400);
  });
});
