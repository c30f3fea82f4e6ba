import { randomBytes } from 'node:crypto';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import type {
  Account,
  Bpt,
  ErrorResponse,
  Invoice,
  MfaEnrollment,
  PublicCheckout,
  Refund,
  SaleRefunds,
} from '@rayo/shared';
import { webhookEvents } from '@rayo/shared/contract';
import { getParams, type LNURLWithdrawParams } from 'js-lnurl';
import { decode } from 'light-bolt11-decoder';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeLnd } from '../../../test/fakes/lnd-server.ts';
import { startFakeLnurlPay } from '../../../test/fakes/lnurl-pay-server.ts';
import { bearer, createTestApp, createTestUser, openTestShop, signIn, type TestApp } from '../../../test/test-app.ts';
import { waitFor } from '../../../test/wait-for.ts';
import { type Bolt11Fields, encodeBolt11 } from '../../domain/bolt11.ts';
import { freePort } from '../../ports.ts';
import { listAuditEntries } from '../audit/audit.repo.ts';
import { createCheckout } from '../checkouts/checkouts.service.ts';
import { claimRefundLink, findRefund } from './refunds.repo.ts';
import { runRefundPayments } from './refunds.service.ts';

/**
 * Refunds through HTTP on a listening app with the devnet node: the refusals, the row lock, the
 * idempotency key, and the LUD-03 refund link read by js-lnurl (an LNURL client written elsewhere)
 * and redeemed with an invoice of the devnet node acting as the customer's wallet.
 */

type Headers = Record<string, string>;

let t: TestApp;
let base: string;
const quiet = { debug: () => {}, warn: () => {} };

beforeAll(async () => {
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  // The refund pass is run by the tests themselves.
  t = await createTestApp({ PUBLIC_URL: base, PAYOUT_INTERVAL_SECONDS: '86400' }, { jobs: true });
  await t.app.listen({ host: '127.0.0.1', port });
});
afterAll(() => t?.close());

async function call(method: 'GET' | 'POST', url: string, headers: Headers, payload?: object) {
  return t.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
}

function codeOf(response: { json: <T>() => T }): string {
  return response.json<ErrorResponse>().code;
}

/** A shop with a terminal on one account, its admin signed in, and a manager linked to that account. */
async function openShop() {
  const shop = await openTestShop(t);
  const account = (await call('POST', '/api/accounts', shop.admin, { name: 'Counter' })).json<Account>();
  const bpt = (
    await call('POST', '/api/bpts', shop.admin, { name: 'Till', accountId: account.id, currency: 'USD' })
  ).json<Bpt>();
  const manager = await createTestUser(t.db, {
    role: 'manager',
    organizationId: shop.organization.id,
    accountIds: [account.id],
  });
  const managerHeaders = bearer((await signIn(t.app, manager.email, manager.password)).accessToken);
  return { ...shop, bpt, manager: managerHeaders };
}

type Shop = Awaited<ReturnType<typeof openShop>>;

async function charge(shop: Shop, amount: string): Promise<Invoice> {
  const response = await call('POST', `/api/bpts/${shop.bpt.id}/invoices`, shop.admin, { amount });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<Invoice>();
}

/** A terminal sale paid from the devnet wallet and recorded in the ledger. */
async function paidSale(shop: Shop, amount = '10.00'): Promise<{ invoice: Invoice; transactionId: string }> {
  const invoice = await charge(shop, amount);
  const paid = await call('POST', '/api/devnet/pay', {}, { paymentRequest: invoice.paymentRequest });
  expect(paid.statusCode, paid.body).toBe(200);
  const row = await waitFor(() =>
    t.db.selectFrom('transactions').select('id').where('invoice_id', '=', invoice.id).executeTakeFirst(),
  );
  return { invoice, transactionId: row.id };
}

let keys = 0;
function refund(shop: Shop, saleId: string, amountMsat: number, headers: Headers = shop.admin, key?: string) {
  keys += 1;
  return call('POST', `/api/transactions/${saleId}/refunds`, headers, {
    amountMsat,
    idempotencyKey: key ?? `refund-key-${keys}`,
  });
}

/** An invoice of the devnet node for `amountMsat`: the customer's wallet receiving the refund. */
function customerInvoice(amountMsat: number) {
  return t.runtime.deps.lightning.createInvoice({
    amountMsat: BigInt(amountMsat),
    description: 'Refund to my wallet',
    expirySeconds: 600,
  });
}

async function settledCount(paymentHash: string): Promise<number> {
  const rows = await t.db
    .selectFrom('devnet_invoices')
    .select('settle_index')
    .where('payment_hash', '=', paymentHash)
    .where('settle_index', 'is not', null)
    .execute();
  return rows.length;
}

/** A full refund whose link took the customer's invoice, as the callback does before paying it. */
async function claimedRefund() {
  const shop = await openShop();
  const { invoice, transactionId } = await paidSale(shop);
  const made = (await refund(shop, transactionId, invoice.amountMsat)).json<Refund>();
  const row = await findRefund(t.db, made.id);
  const wallet = await customerInvoice(invoice.amountMsat);
  await claimRefundLink(t.db, row?.k1 as string, {
    paymentRequest: wallet.paymentRequest,
    paymentHash: wallet.paymentHash,
    expiresAt: wallet.expiresAt,
  });
  return { made, wallet };
}

describe('refusals', () => {
  it('refuses more than the sale received, in one refund or across several', async () => {
    const shop = await openShop();
    const { invoice, transactionId } = await paidSale(shop);
    const over = await refund(shop, transactionId, invoice.amountMsat + 1);
    expect(over.statusCode, over.body).toBe(409);
    expect(codeOf(over)).toBe('RefundExceedsSale');

    const part = await refund(shop, transactionId, invoice.amountMsat - 1000);
    expect(part.statusCode, part.body).toBe(200);
    const beyond = await refund(shop, invoice.id, 1001);
    expect(codeOf(beyond)).toBe('RefundExceedsSale');
    const rest = await refund(shop, invoice.id, 1000);
    expect(rest.statusCode, rest.body).toBe(200);
    // The two parts give back the sale's whole fiat total.
    const refunds = (await call('GET', `/api/transactions/${transactionId}/refunds`, shop.admin)).json<SaleRefunds>();
    expect(refunds.refundableMsat).toBe(0);
    expect(refunds.refunds.map((r) => r.fiatAmount)).toEqual(['9.99', '0.01']);
    const double = await refund(shop, transactionId, 1);
    expect(codeOf(double)).toBe('RefundExceedsSale');
  });

  it('makes one refund of a double click or a retry with the same key', async () => {
    const shop = await openShop();
    const { invoice, transactionId } = await paidSale(shop);
    const [first, second] = await Promise.all([
      refund(shop, transactionId, invoice.amountMsat, shop.admin, 'same-click-key'),
      refund(shop, transactionId, invoice.amountMsat, shop.admin, 'same-click-key'),
    ]);
    expect(first.statusCode, first.body).toBe(200);
    expect(second.statusCode, second.body).toBe(200);
    expect(first.json<Refund>().id).toBe(second.json<Refund>().id);
    const rows = await t.db.selectFrom('refunds').select('id').where('transaction_id', '=', transactionId).execute();
    expect(rows).toHaveLength(1);
    const other = await refund(shop, transactionId, 1000, shop.admin, 'same-click-key');
    expect(codeOf(other)).toBe('InvalidInput');
  });

  it('lets only one of two concurrent refunds pass when both together exceed the sale', async () => {
    const shop = await openShop();
    const { invoice, transactionId } = await paidSale(shop);
    const most = Math.floor(invoice.amountMsat * 0.6);
    const answers = await Promise.all([refund(shop, transactionId, most), refund(shop, transactionId, most)]);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 409]);
  });

  it('refuses a refund of an unpaid sale', async () => {
    const shop = await openShop();
    const invoice = await charge(shop, '3.00');
    const response = await refund(shop, invoice.id, 1000);
    expect(response.statusCode, response.body).toBe(409);
    expect(codeOf(response)).toBe('SaleNotPaid');
  });

  it("refuses a blocked organization's refund", async () => {
    const shop = await openShop();
    const { transactionId } = await paidSale(shop);
    await t.db
      .updateTable('organizations')
      .set({ blocked: true, blocked_reason: 'other' })
      .where('id', '=', shop.organization.id)
      .execute();
    const response = await refund(shop, transactionId, 1000);
    expect(response.statusCode, response.body).toBe(403);
    expect(codeOf(response)).toBe('OrganizationBlocked');
  });

  it('lets managers see refunds without their links, never make one', async () => {
    const shop = await openShop();
    const { transactionId } = await paidSale(shop);
    expect((await refund(shop, transactionId, 1000)).statusCode).toBe(200);
    const made = await refund(shop, transactionId, 1000, shop.manager);
    expect(made.statusCode, made.body).toBe(403);
    const seen = await call('GET', `/api/transactions/${transactionId}/refunds`, shop.manager);
    expect(seen.statusCode, seen.body).toBe(200);
    const listed = seen.json<SaleRefunds>().refunds;
    expect(listed).toHaveLength(1);
    expect(listed[0]?.lnurl).toBeNull();
    const adminView = (await call('GET', `/api/transactions/${transactionId}/refunds`, shop.admin)).json<SaleRefunds>();
    expect(adminView.refunds[0]?.lnurl).toMatch(/^LNURL1/);
  });

  it("answers 404 for another organization's sale", async () => {
    const shop = await openShop();
    const other = await openShop();
    const { transactionId } = await paidSale(other);
    const response = await refund(shop, transactionId, 1000);
    expect(response.statusCode, response.body).toBe(404);
  });

  it('needs an mfa-code when MFA is on, and records who refunded what', async () => {
    const shop = await openShop();
    const { transactionId } = await paidSale(shop);
    const enable = await call('POST', '/api/settings/mfa/enable', shop.admin);
    const totp = new TOTP({ secret: Secret.fromBase32(enable.json<MfaEnrollment>().secret) });
    const validate = await call('POST', '/api/settings/mfa/validate', shop.admin, { code: totp.generate() });
    expect(validate.statusCode, validate.body).toBe(204);

    const without = await refund(shop, transactionId, 2000);
    expect(codeOf(without)).toBe('MissingMfaCode');
    const code = totp.generate({ timestamp: Date.now() + 30_000 });
    const withCode = await refund(shop, transactionId, 2000, { ...shop.admin, 'mfa-code': code });
    expect(withCode.statusCode, withCode.body).toBe(200);
    const entries = await listAuditEntries(t.db, { organizationId: shop.organization.id });
    const entry = entries.find((row) => row.action === 'refund.created');
    expect(entry?.actor_email).toBe(shop.user.email);
    expect(entry?.target).toBe(`transaction:${transactionId}`);
    expect(entry?.after).toMatchObject({ amountMsat: '2000', refundId: withCode.json<Refund>().id });
  });
});

describe('the refund link (LUD-03)', () => {
  it('is read by an LNURL client as a fixed-amount withdrawRequest, and pays once under double callbacks', async () => {
    const shop = await openShop();
    const { invoice, transactionId } = await paidSale(shop);
    const amountMsat = invoice.amountMsat - 5000;
    const made = (await refund(shop, transactionId, amountMsat)).json<Refund>();
    expect(made.lnurl).toMatch(/^LNURL1/);

    const params = (await getParams(made.lnurl as string)) as LNURLWithdrawParams;
    expect(params.tag).toBe('withdrawRequest');
    expect(params.minWithdrawable).toBe(amountMsat);
    expect(params.maxWithdrawable).toBe(amountMsat);
    expect(params.domain).toBe('127.0.0.1');
    expect(params.callback.startsWith(`${base}/api/lnurlw/refunds/`)).toBe(true);

    const wallet = await customerInvoice(amountMsat);
    const callback = `${params.callback}?k1=${params.k1}&pr=${wallet.paymentRequest}`;
    const answers = await Promise.all([fetch(callback), fetch(callback), fetch(callback)]);
    for (const answer of answers) expect(answer.headers.get('access-control-allow-origin')).toBe('*');
    const bodies = await Promise.all(answers.map((answer) => answer.json() as Promise<{ status: string }>));
    expect(bodies.filter((body) => body.status === 'OK')).toHaveLength(1);
    expect(bodies.filter((body) => body.status === 'ERROR')).toHaveLength(2);

    const paid = await waitFor(async () => {
      const row = await findRefund(t.db, made.id);
      return row?.state === 'paid' ? row : undefined;
    });
    expect(paid.paymentHash).toBe(wallet.paymentHash);
    expect(await settledCount(wallet.paymentHash)).toBe(1);
    const again = (await getParams(made.lnurl as string)) as { status?: string };
    expect(again.status).toBe('ERROR');
  });

  it('refuses an invoice for another amount, an unknown link and a wrong k1, with LNURL errors', async () => {
    const shop = await openShop();
    const { invoice, transactionId } = await paidSale(shop);
    const made = (await refund(shop, transactionId, invoice.amountMsat)).json<Refund>();
    const params = (await getParams(made.lnurl as string)) as LNURLWithdrawParams;
    const wrong = await customerInvoice(invoice.amountMsat - 1000);
    const answer = await fetch(`${params.callback}?k1=${params.k1}&pr=${wrong.paymentRequest}`);
    expect(answer.status).toBe(200);
    expect(await answer.json()).toMatchObject({ status: 'ERROR' });
    const wrongK1 = await fetch(`${params.callback}?k1=${'0'.repeat(64)}&pr=${wrong.paymentRequest}`);
    expect(await wrongK1.json()).toMatchObject({ status: 'ERROR' });
    const unknown = await fetch(`${base}/api/lnurlw/refunds/${'1'.repeat(64)}`);
    expect(await unknown.json()).toMatchObject({ status: 'ERROR', reason: 'Unknown refund link' });
    expect((await findRefund(t.db, made.id))?.state).toBe('open');
    expect(await settledCount(wrong.paymentHash)).toBe(0);
  });

  it('finishes a payment cut short after the invoice was taken, and never pays it twice', async () => {
    // What a process killed right after taking the invoice leaves behind: stored, not paid.
    const { made, wallet } = await claimedRefund();
    await runRefundPayments(t.runtime.deps, quiet);
    expect((await findRefund(t.db, made.id))?.state).toBe('paid');
    await runRefundPayments(t.runtime.deps, quiet);
    expect(await settledCount(wallet.paymentHash)).toBe(1);
  });

  it('records a payment the node made before a crash kept it from being recorded, without paying again', async () => {
    const { made, wallet } = await claimedRefund();
    // The node paid; the process died before it wrote so down.
    await t.runtime.deps.lightning.payInvoice(wallet.paymentRequest, { maxFeeMsat: 1000n, timeoutSeconds: 60 });
    await runRefundPayments(t.runtime.deps, quiet);
    const done = await findRefund(t.db, made.id);
    expect(done?.state).toBe('paid');
    expect(await settledCount(wallet.paymentHash)).toBe(1);
  });
});

describe('the checkout.refunded webhook', () => {
  /** A store checkout of `shop`'s terminal paid from the devnet wallet, with the store listening for refunds. */
  async function paidStoreCheckout(shop: Shop) {
    await t.db
      .insertInto('webhook_endpoints')
      .values({
        organization_id: shop.organization.id,
        url: 'https://shop.example/hooks',
        secret_sealed: 'x',
        events: ['checkout.refunded'],
      })
      .execute();
    const vbpt = (await call('POST', '/api/virtual-bpts', shop.admin, { name: 'Web shop', bptId: shop.bpt.id })).json<{
      id: string;
    }>();
    const checkout = await createCheckout(t.runtime.deps, {
      organizationId: shop.organization.id,
      virtualBptId: vbpt.id,
      kind: 'store',
      description: 'Order 4001',
      amount: { currency: 'USD', minor: 1000n },
      orderId: '4001',
    });
    const open = (await call('GET', `/api/public/checkouts/${checkout.id}`, {})).json<PublicCheckout>();
    const invoice = open.invoice;
    if (!invoice) throw new Error('the checkout issued no invoice');
    const paid = await call('POST', '/api/devnet/pay', {}, { paymentRequest: invoice.paymentRequest });
    expect(paid.statusCode, paid.body).toBe(200);
    await waitFor(() =>
      t.db.selectFrom('transactions').select('id').where('invoice_id', '=', invoice.id).executeTakeFirst(),
    );
    return { checkout, invoiceId: invoice.id, amountMsat: invoice.amountMsat };
  }

  async function refundedEvents(organizationId: string) {
    return t.db
      .selectFrom('webhook_deliveries')
      .select(['type', 'payload'])
      .where('organization_id', '=', organizationId)
      .orderBy('created_at')
      .execute();
  }

  it('tells the store of each refund with what was refunded so far, once per refund, in its transaction', async () => {
    const shop = await openShop();
    const { checkout, invoiceId, amountMsat } = await paidStoreCheckout(shop);
    const first = await refund(shop, invoiceId, amountMsat - 100_000, shop.admin, 'store-refund-1');
    expect(first.statusCode, first.body).toBe(200);
    // A retry with the same key and a refused over-refund make no event.
    await refund(shop, invoiceId, amountMsat - 100_000, shop.admin, 'store-refund-1');
    expect((await refund(shop, invoiceId, 100_001)).statusCode).toBe(409);
    const second = await refund(shop, invoiceId, 100_000);
    expect(second.statusCode, second.body).toBe(200);
    const [one, two] = [first.json<Refund>(), second.json<Refund>()];

    const events = await refundedEvents(shop.organization.id);
    expect(events).toEqual([
      {
        type: 'checkout.refunded',
        payload: {
          checkoutId: checkout.id,
          kind: 'store',
          orderId: '4001',
          status: 'paid',
          amount: { currency: 'USD', value: '10.00' },
          paidVia: 'lightning',
          late: false,
          metadata: null,
          refund: {
            id: one.id,
            createdAt: one.createdAt,
            amountMsat: amountMsat - 100_000,
            currency: 'USD',
            amountMinor: Math.round(Number.parseFloat(one.fiatAmount) * 100),
            value: one.fiatAmount,
          },
          refunded: {
            amountMsat: amountMsat - 100_000,
            currency: 'USD',
            amountMinor: Math.round(Number.parseFloat(one.fiatAmount) * 100),
            value: one.fiatAmount,
          },
        },
      },
      {
        type: 'checkout.refunded',
        payload: expect.objectContaining({
          refund: expect.objectContaining({ id: two.id, amountMsat: 100_000, value: two.fiatAmount }),
          refunded: { amountMsat, currency: 'USD', amountMinor: 1000, value: '10.00' },
        }),
      },
    ]);
    // The body is what the API document says a checkout.refunded webhook carries.
    for (const event of events)
      expect(webhookEvents['checkout.refunded'].data.safeParse(event.payload).error).toBeUndefined();
  });

  it("tells no store of a terminal sale's refund", async () => {
    const shop = await openShop();
    await t.db
      .insertInto('webhook_endpoints')
      .values({
        organization_id: shop.organization.id,
        url: 'https://shop.example/hooks',
        secret_sealed: 'x',
        events: ['checkout.refunded'],
      })
      .execute();
    const { invoice, transactionId } = await paidSale(shop);
    expect((await refund(shop, transactionId, invoice.amountMsat)).statusCode).toBe(200);
    expect(await refundedEvents(shop.organization.id)).toEqual([]);
  });
});

describe("the terminal's latest sales", () => {
  it('show what each sale has had refunded, signed in and through the shared cashier link', async () => {
    const opened = await openShop();
    const payload = { name: 'Shared till', accountId: opened.bpt.accountId, currency: 'USD', shareable: true };
    const shareable = (await call('POST', '/api/bpts', opened.admin, payload)).json<Bpt>();
    const shop = { ...opened, bpt: shareable };
    const untouched = await paidSale(shop, '5.00');
    const partly = await paidSale(shop, '10.00');
    const whole = await paidSale(shop, '2.00');
    expect((await refund(shop, partly.transactionId, 1_000_000)).statusCode).toBe(200);
    expect((await refund(shop, whole.transactionId, whole.invoice.amountMsat)).statusCode).toBe(200);
    const expected = [
      { id: whole.transactionId, refundedMsat: whole.invoice.amountMsat, refundedAmount: '2.00' },
      { id: partly.transactionId, refundedMsat: 1_000_000 },
      { id: untouched.transactionId, refundedMsat: 0, refundedAmount: '0.00' },
    ];
    const signedIn = await call('GET', `/api/bpts/${shop.bpt.id}/transactions`, shop.admin);
    expect(signedIn.statusCode, signedIn.body).toBe(200);
    expect(signedIn.json()).toMatchObject(expected);
    const shared = await call('GET', `/api/terminal/${shop.bpt.shareToken}/transactions`, {});
    expect(shared.statusCode, shared.body).toBe(200);
    expect(shared.json()).toMatchObject(expected);
  });
});

/** An invoice signed by a node that is not ours, with `fields` changed from a valid one. */
function foreignInvoice(fields: Partial<Bolt11Fields>): string {
  return encodeBolt11(
    {
      currency: 'bcrt',
      amountMsat: 1000n,
      timestamp: Math.floor(Date.now() / 1000),
      paymentHash: randomBytes(32).toString('hex'),
      paymentSecret: randomBytes(32).toString('hex'),
      description: 'Refund',
      expirySeconds: 600,
      minFinalCltvExpiry: 18,
      ...fields,
    },
    secp256k1.utils.randomSecretKey(),
  );
}

function refundTo(shop: Shop, saleId: string, amountMsat: number, destination: string, key?: string) {
  keys += 1;
  return call('POST', `/api/transactions/${saleId}/refunds`, shop.admin, {
    amountMsat,
    idempotencyKey: key ?? `refund-key-${keys}`,
    destination,
  });
}

describe("a refund to the customer's Lightning invoice", () => {
  it('pays the invoice once, read back by an independent BOLT11 decoder, even for a double click', async () => {
    const shop = await openShop();
    const { invoice, transactionId } = await paidSale(shop);
    const wallet = await customerInvoice(invoice.amountMsat);
    const decoded = decode(wallet.paymentRequest);
    const amountSection = decoded.sections.find((section) => section.name === 'amount');
    expect(amountSection?.value).toBe(String(invoice.amountMsat));

    const [first, second] = await Promise.all([
      refundTo(
        shop,
        transactionId,
        invoice.amountMsat,
        `lightning:${wallet.paymentRequest.toUpperCase()}`,
        'inv-click',
      ),
      refundTo(shop, transactionId, invoice.amountMsat, wallet.paymentRequest, 'inv-click'),
    ]);
    expect(first.statusCode, first.body).toBe(200);
    expect(second.statusCode, second.body).toBe(200);
    const made = first.json<Refund>();
    expect(second.json<Refund>().id).toBe(made.id);
    expect(made).toMatchObject({ method: 'lightning-invoice', lnurl: null, destination: wallet.paymentRequest });
    const paid = await waitFor(async () => {
      const row = await findRefund(t.db, made.id);
      return row?.state === 'paid' ? row : undefined;
    });
    expect(paid.paymentHash).toBe(wallet.paymentHash);
    await runRefundPayments(t.runtime.deps, quiet);
    expect(await settledCount(wallet.paymentHash)).toBe(1);
    const refunds = (await call('GET', `/api/transactions/${transactionId}/refunds`, shop.admin)).json<SaleRefunds>();
    expect(refunds.refundableMsat).toBe(0);
    expect(refunds.refunds).toHaveLength(1);
  });

  it('refuses an invoice for another amount, without an amount, expired, of another network, or unreadable', async () => {
    const shop = await openShop();
    const { invoice, transactionId } = await paidSale(shop);
    const amount = invoice.amountMsat;
    const cases: [string, string][] = [
      [(await customerInvoice(amount - 1000)).paymentRequest, 'for exactly'],
      [foreignInvoice({ amountMsat: null }), 'for exactly'],
      [foreignInvoice({ amountMsat: BigInt(amount), timestamp: Math.floor(Date.now() / 1000) - 700 }), 'expire'],
      [foreignInvoice({ amountMsat: BigInt(amount), expirySeconds: 10 }), 'expire'],
      [foreignInvoice({ amountMsat: BigInt(amount), currency: 'bc' }), 'network'],
      ['lnbcrt1notaninvoice', 'neither'],
    ];
    for (const [destination, reason] of cases) {
      const response = await refundTo(shop, transactionId, amount, destination);
      expect(response.statusCode, response.body).toBe(400);
      expect(codeOf(response)).toBe('InvalidRefundInvoice');
      expect(response.json<ErrorResponse>().message).toContain(reason);
    }
    const rows = await t.db.selectFrom('refunds').select('id').where('transaction_id', '=', transactionId).execute();
    expect(rows).toHaveLength(0);
  });

  it('refuses an invoice already given for another refund', async () => {
    const shop = await openShop();
    const { invoice, transactionId } = await paidSale(shop, '20.00');
    const half = Math.floor(invoice.amountMsat / 2000) * 1000;
    const wallet = await customerInvoice(half);
    const first = await refundTo(shop, transactionId, half, wallet.paymentRequest);
    expect(first.statusCode, first.body).toBe(200);
    const again = await refundTo(shop, transactionId, half, wallet.paymentRequest);
    expect(again.statusCode, again.body).toBe(400);
    expect(codeOf(again)).toBe('InvalidRefundInvoice');
  });

  it('checks the sale before the destination: over-refund, unpaid sale, manager', async () => {
    const shop = await openShop();
    const { invoice, transactionId } = await paidSale(shop);
    const wallet = await customerInvoice(invoice.amountMsat + 1000);
    const over = await refundTo(shop, transactionId, invoice.amountMsat + 1000, wallet.paymentRequest);
    expect(codeOf(over)).toBe('RefundExceedsSale');
    const unpaid = await charge(shop, '1.00');
    expect(codeOf(await refundTo(shop, unpaid.id, 1000, wallet.paymentRequest))).toBe('SaleNotPaid');
    keys += 1;
    const byManager = await call('POST', `/api/transactions/${transactionId}/refunds`, shop.manager, {
      amountMsat: 1000,
      idempotencyKey: `refund-key-${keys}`,
      destination: wallet.paymentRequest,
    });
    expect(byManager.statusCode, byManager.body).toBe(403);
    expect(await settledCount(wallet.paymentHash)).toBe(0);
  });

  it('becomes a refund link when the invoice expired unpaid, so the customer can still take it', async () => {
    const shop = await openShop();
    const { invoice, transactionId } = await paidSale(shop);
    // Signed by a node nobody can route to: the devnet node cannot pay it.
    const unpayable = foreignInvoice({ amountMsat: BigInt(invoice.amountMsat) });
    const made = (await refundTo(shop, transactionId, invoice.amountMsat, unpayable)).json<Refund>();
    expect(made.state).toBe('paying');
    await waitFor(async () => ((await findRefund(t.db, made.id))?.state === 'paying' ? true : undefined));
    await runRefundPayments(t.runtime.deps, quiet);
    expect((await findRefund(t.db, made.id))?.state).toBe('paying');
    // Its time ran out long enough ago for no payment of it to complete any more.
    await t.db
      .updateTable('refunds')
      .set({ invoice_expires_at: new Date(Date.now() - 3_600_000) })
      .where('id', '=', made.id)
      .execute();
    await runRefundPayments(t.runtime.deps, quiet);
    const listed = (await call('GET', `/api/transactions/${transactionId}/refunds`, shop.admin)).json<SaleRefunds>();
    expect(listed.refunds[0]).toMatchObject({
      id: made.id,
      method: 'lnurl-withdraw',
      state: 'open',
      destination: null,
    });
    expect(listed.refunds[0]?.lnurl).toMatch(/^LNURL1/);
  });
});

describe("a refund to the customer's Lightning address", () => {
  it('refuses an address whose service is at a private or loopback host outside its own origin', async () => {
    const shop = await openShop();
    const { invoice, transactionId } = await paidSale(shop);
    // A working LNURL-pay service, at loopback: outside devnet's own origin it is never asked.
    const lnd = await startFakeLnd({ network: 'regtest' });
    const lnurl = await startFakeLnurlPay(lnd);
    try {
      const response = await refundTo(shop, transactionId, invoice.amountMsat, lnurl.address('customer'));
      expect(response.statusCode, response.body).toBe(400);
      expect(codeOf(response)).toBe('LightningAddressUnreachable');
      expect(lnurl.callbacks).toEqual([]);
    } finally {
      await lnurl.close();
      await lnd.close();
    }
    const bad = await refundTo(shop, transactionId, invoice.amountMsat, 'not an address@');
    expect(codeOf(bad)).toBe('InvalidLightningAddress');
    const rows = await t.db.selectFrom('refunds').select('id').where('transaction_id', '=', transactionId).execute();
    expect(rows).toHaveLength(0);
  });
});
