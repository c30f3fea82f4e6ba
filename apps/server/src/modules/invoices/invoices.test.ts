import {
  type Account,
  type Bpt,
  type ErrorResponse,
  formatMinor,
  type Invoice,
  type PublicCheckout,
  parseAmount,
  parsePercentToBps,
  quoteSale,
  type TerminalInfo,
  type Transaction,
} from '@rayo/shared';
import { decode as independentDecode } from 'light-bolt11-decoder';
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
import { expireDueInvoices, reconcileOpenInvoices, settleInvoice } from '../ledger/settlement.service.ts';
import { countTransactionsForPayment } from '../transactions/transactions.repo.ts';

type Headers = { authorization: string };

async function setUpShop(t: TestApp) {
  const organization = await createTestOrganization(t.db, 'Café Quetzal');
  const user = await createTestUser(t.db, { role: 'admin', organizationId: organization.id });
  const admin = bearer((await signIn(t.app, user.email, user.password)).accessToken);
  const account = (
    await t.app.inject({ method: 'POST', url: '/api/accounts', headers: admin, payload: { name: 'Counter' } })
  ).json<Account>();
  const bpt = (
    await t.app.inject({
      method: 'POST',
      url: '/api/bpts',
      headers: admin,
      payload: {
        name: 'Till 1',
        accountId: account.id,
        channel: 'store',
        currency: 'GTQ',
        shareable: true,
        tipEnabled: true,
        taxPercentage: 12,
      },
    })
  ).json<Bpt>();
  return { organization, admin, account, bpt };
}

async function charge(t: TestApp, bpt: Bpt, headers: Headers, payload: object = { amount: '12.50', tip: '1.25' }) {
  return t.app.inject({ method: 'POST', url: `/api/bpts/${bpt.id}/invoices`, headers, payload });
}

async function devnetPay(t: TestApp, paymentRequest: string) {
  return t.app.inject({ method: 'POST', url: '/api/devnet/pay', payload: { paymentRequest } });
}

async function latest(t: TestApp, bpt: Bpt, headers: Headers): Promise<Transaction[]> {
  return (await t.app.inject({ method: 'GET', url: `/api/bpts/${bpt.id}/transactions`, headers })).json();
}

describe('charging on a terminal and settling exactly once', () => {
  let t: TestApp;
  let shop: Awaited<ReturnType<typeof setUpShop>>;
  let baseUrl: string;

  beforeAll(async () => {
    // GTQ at Q730,000 per bitcoin, 1% transaction fee: the defaults of the fixed rate source.
    t = await createTestApp({ FIXED_RATES: 'GTQ=730000,USD=95000', TX_FEE_PERCENT: '1' }, { jobs: true });
    shop = await setUpShop(t);
    baseUrl = await t.app.listen({ host: '127.0.0.1', port: 0 });
  });
  afterAll(() => t.close());

  it('prices the sale: bill + tip + 12% tax, at the locked rate, rounded to whole satoshis', async () => {
    const info = (
      await t.app.inject({ method: 'GET', url: `/api/bpts/${shop.bpt.id}/terminal`, headers: shop.admin })
    ).json<TerminalInfo>();
    expect(info).toMatchObject({ bpt: { currency: 'GTQ', tipEnabled: true, taxPercentage: 12 } });

    const response = await charge(t, shop.bpt, shop.admin);
    expect(response.statusCode, response.body).toBe(201);
    const invoice = response.json<Invoice>();
    // Q12.50 bill, Q1.25 tip, Q1.50 tax = Q15.25; Q15.25 / Q730,000 per BTC = 2,089.04 sats → 2,089.
    expect(invoice).toMatchObject({
      billAmount: '12.50',
      tip: '1.25',
      tax: '1.50',
      fiatTotal: '15.25',
      currency: 'GTQ',
      amountMsat: 2_089_000,
      status: 'pending',
    });
    expect(invoice.rate).toBe(info.rate);
  });

  it('charges what the terminal quotes on screen (quoteSale) for the same bill, tip, tax and rate', async () => {
    const info = (
      await t.app.inject({ method: 'GET', url: `/api/bpts/${shop.bpt.id}/terminal`, headers: shop.admin })
    ).json<TerminalInfo>();
    const terms = {
      currency: info.bpt.currency,
      taxBps: parsePercentToBps(info.bpt.taxPercentage),
      rateMinorPerBtc: BigInt(info.rateMinorPerBtc),
    };
    for (const [amount, tip] of [
      ['0.07', '0'],
      ['12.50', '1.25'],
      ['999.99', '0.01'],
      ['3333.33', '3333.33'],
    ] as const) {
      const response = await charge(t, shop.bpt, shop.admin, { amount, tip });
      expect(response.statusCode, response.body).toBe(201);
      const quote = quoteSale({
        ...terms,
        billMinor: parseAmount(amount, terms.currency),
        tipMinor: parseAmount(tip, terms.currency),
      });
      expect(response.json<Invoice>()).toMatchObject({
        amountMsat: Number(quote.amountMsat),
        tax: formatMinor(quote.taxMinor, terms.currency),
        fiatTotal: formatMinor(quote.totalMinor, terms.currency),
      });
    }
  });

  it('issues invoices an independent BOLT11 decoder reads correctly', async () => {
    const invoice = (
      await charge(t, shop.bpt, shop.admin, { amount: '100', description: 'Two coffees' })
    ).json<Invoice>();
    expect(invoice.paymentRequest.startsWith('lnbcrt')).toBe(true);
    const decoded = independentDecode(invoice.paymentRequest);
    const section = (name: string) =>
      decoded.sections.find((s: { name: string }) => s.name === name) as { value: unknown };
    expect(section('amount').value).toBe(String(invoice.amountMsat));
    expect(section('description').value).toBe('Two coffees');
    expect(section('payment_hash').value).toBe(invoice.paymentHash);
    expect(decoded.expiry).toBe(t.config.invoiceExpirySeconds);
  });

  it('streams settled over SSE and records one ledger row with every figure', async () => {
    const invoice = (await charge(t, shop.bpt, shop.admin)).json<Invoice>();
    const events = await openSse(`${baseUrl}/api/invoices/${invoice.id}/events`);
    expect(await events.next()).toEqual({ event: 'status', data: { id: invoice.id, status: 'pending' } });

    const paid = await devnetPay(t, invoice.paymentRequest);
    expect(paid.statusCode, paid.body).toBe(200);
    expect(await events.next()).toEqual({ event: 'status', data: { id: invoice.id, status: 'settled' } });
    events.close();

    const rows = await latest(t, shop.bpt, shop.admin);
    const sale = rows.find((row) => row.transactionId === invoice.paymentHash);
    expect(sale).toMatchObject({
      bptId: shop.bpt.id,
      accountId: shop.account.id,
      currency: 'GTQ',
      currencyPair: 'BTC/GTQ',
      billAmount: '12.50',
      tip: '1.25',
      tax: '1.50',
      totalMsatCharged: 2_089_000,
      txFeeMsat: 20_890,
      conversionFeeMsat: 0,
      msatIncome: 2_068_110,
      fiatIncome: '0.00',
      fiatPercentage: 0,
      disbursed: false,
      rate: invoice.rate,
    });
    const again = await t.app.inject({ method: 'GET', url: `/api/invoices/${invoice.id}` });
    expect(again.json<Invoice>().status).toBe('settled');
  });

  it('ignores every later report of the same payment', async () => {
    const invoice = (await charge(t, shop.bpt, shop.admin)).json<Invoice>();
    await devnetPay(t, invoice.paymentRequest);
    await waitFor(async () => (await countTransactionsForPayment(t.db, invoice.paymentHash)) === 1);
    const replay = {
      paymentHash: invoice.paymentHash,
      settleIndex: 0n,
      amountPaidMsat: BigInt(invoice.amountMsat),
      settledAt: new Date(),
    };
    const results = await Promise.all([1, 2, 3, 4].map(() => settleInvoice(t, 'devnet', replay)));
    expect(results).toEqual([false, false, false, false]);
    expect(await countTransactionsForPayment(t.db, invoice.paymentHash)).toBe(1);
    expect((await reconcileOpenInvoices(t.runtime.deps)) >= 0).toBe(true);
    expect(await countTransactionsForPayment(t.db, invoice.paymentHash)).toBe(1);
  });

  it('refuses to pay an invoice twice', async () => {
    const invoice = (await charge(t, shop.bpt, shop.admin)).json<Invoice>();
    expect((await devnetPay(t, invoice.paymentRequest)).statusCode).toBe(200);
    const second = await devnetPay(t, invoice.paymentRequest);
    expect(second.statusCode).toBe(409);
  });

  it('expires unpaid invoices and tells the watchers', async () => {
    const invoice = (await charge(t, shop.bpt, shop.admin)).json<Invoice>();
    const events = await openSse(`${baseUrl}/api/invoices/${invoice.id}/events`);
    await events.next();
    await expireDueInvoices(t.db, new Date(Date.parse(invoice.expiresAt) + 1000));
    expect(await events.next()).toEqual({ event: 'status', data: { id: invoice.id, status: 'expired' } });
    events.close();
  });

  it('rejects bad amounts with clear codes, never a 500', async () => {
    const cases: Array<[object, string]> = [
      [{ amount: '0' }, 'InvalidAmount'],
      [{ amount: '12.345' }, 'InvalidAmount'],
      [{ amount: 'abc' }, 'InvalidAmount'],
      [{ amount: '-5' }, 'InvalidAmount'],
      [{}, 'MissingAmount'],
      [{ amount: '10', tip: '1.001' }, 'InvalidTip'],
    ];
    for (const [payload, code] of cases) {
      const response = await charge(t, shop.bpt, shop.admin, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json<ErrorResponse>().code, JSON.stringify(payload)).toBe(code);
    }
  });

  it('serves the shareable terminal by its token, without a session, until the token rotates', async () => {
    const token = shop.bpt.shareToken as string;
    const info = await t.app.inject({ method: 'GET', url: `/api/terminal/${token}` });
    expect(info.json<TerminalInfo>().bpt.name).toBe('Till 1');
    const created = await t.app.inject({
      method: 'POST',
      url: `/api/terminal/${token}/invoices`,
      payload: { amount: '5' },
    });
    expect(created.statusCode).toBe(201);
    const list = await t.app.inject({ method: 'GET', url: `/api/terminal/${token}/transactions?limit=3` });
    expect(list.statusCode).toBe(200);

    const rotated = await t.app.inject({
      method: 'POST',
      url: `/api/bpts/${shop.bpt.id}/share-token`,
      headers: shop.admin,
    });
    const fresh = rotated.json<Bpt>().shareToken as string;
    expect(fresh).not.toBe(token);
    expect((await t.app.inject({ method: 'GET', url: `/api/terminal/${token}` })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: `/api/terminal/${fresh}` })).statusCode).toBe(200);
  });

  it("shows the shared cashier link only its terminal's sales of today, not the organization's others", async () => {
    const shared = await setUpShop(t);
    const token = shared.bpt.shareToken as string;
    const paidOnTerminal = async () => {
      const invoice = (await charge(t, shared.bpt, shared.admin, { amount: '10' })).json<Invoice>();
      expect((await devnetPay(t, invoice.paymentRequest)).statusCode).toBe(200);
      await waitFor(async () => (await countTransactionsForPayment(t.db, invoice.paymentHash)) === 1);
      return invoice.paymentHash;
    };
    const today = await paidOnTerminal();
    const older = await paidOnTerminal();
    // A sale two days ago: the link shows the day's sales, not the terminal's history.
    await t.db
      .updateTable('transactions')
      .set({ settled_at: new Date(Date.now() - 2 * 86_400_000) })
      .where('payment_hash', '=', older)
      .execute();
    // A payment link sold through a virtual BPT books its sale on the same BPT.
    const vbpt = (
      await t.app.inject({
        method: 'POST',
        url: '/api/virtual-bpts',
        headers: shared.admin,
        payload: { name: 'Web shop', bptId: shared.bpt.id },
      })
    ).json<{ id: string }>();
    const link = (
      await t.app.inject({
        method: 'POST',
        url: `/api/virtual-bpts/${vbpt.id}/payment-links`,
        headers: shared.admin,
        payload: { description: 'Cake', amount: '73', currency: 'GTQ' },
      })
    ).json<{ id: string }>();
    const readLink = async () =>
      (await t.app.inject({ method: 'GET', url: `/api/public/checkouts/${link.id}` })).json<PublicCheckout>();
    const { invoice } = await readLink();
    expect((await devnetPay(t, invoice?.paymentRequest ?? '')).statusCode).toBe(200);
    await waitFor(async () => (await readLink()).status === 'paid');

    const onLink = await t.app.inject({ method: 'GET', url: `/api/terminal/${token}/transactions?limit=50` });
    expect(onLink.json<Transaction[]>().map((sale) => sale.transactionId)).toEqual([today]);
    // Signed in, the BPT's terminal still lists its own sales only, older ones included.
    const signedIn = await latest(t, shared.bpt, shared.admin);
    expect(signedIn.map((sale) => sale.transactionId)).toEqual([today, older]);
  });

  it('refuses to charge for a blocked organization, saying why it was blocked', async () => {
    const blocked = await setUpShop(t);
    const blockFor = (reason: 'missing_info' | 'other') =>
      t.db
        .updateTable('organizations')
        .set({ blocked: true, blocked_reason: reason })
        .where('id', '=', blocked.organization.id)
        .execute();
    await blockFor('other');
    const response = await charge(t, blocked.bpt, blocked.admin);
    expect(response.statusCode).toBe(403);
    expect(response.json<ErrorResponse>()).toEqual({
      code: 'OrganizationBlocked',
      message: 'Your organization is blocked; contact support',
    });
    // SPEC §8's message is for the case it names: information missing in Settings.
    await blockFor('missing_info');
    const missing = await charge(t, blocked.bpt, blocked.admin);
    expect([missing.statusCode, missing.json<ErrorResponse>()]).toEqual([
      403,
      { code: 'OrganizationDisabled', message: 'Your organization is disabled, missing info in Settings' },
    ]);
  });
});

describe('reconcile without the settlement stream', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({}, { jobs: false });
  });
  afterAll(() => t.close());

  it('records a payment the stream never delivered, once', async () => {
    const shop = await setUpShop(t);
    const invoice = (await charge(t, shop.bpt, shop.admin)).json<Invoice>();
    await devnetPay(t, invoice.paymentRequest);
    expect(await countTransactionsForPayment(t.db, invoice.paymentHash)).toBe(0);
    expect(await reconcileOpenInvoices(t.runtime.deps)).toBe(1);
    expect(await reconcileOpenInvoices(t.runtime.deps)).toBe(0);
    expect(await countTransactionsForPayment(t.db, invoice.paymentHash)).toBe(1);
  });
});

describe('BPTs', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({}, { jobs: true });
  });
  afterAll(() => t.close());

  it('needs an account first', async () => {
    const organization = await createTestOrganization(t.db);
    const user = await createTestUser(t.db, { role: 'admin', organizationId: organization.id });
    const admin = bearer((await signIn(t.app, user.email, user.password)).accessToken);
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/bpts',
      headers: admin,
      payload: { name: 'Till', accountId: '00000000-0000-4000-8000-000000000000', currency: 'USD' },
    });
    expect(response.statusCode).toBe(409);
    expect(response.json<ErrorResponse>().code).toBe('AccountRequired');
  });

  it('accepts sats and quoted currencies only, and parses the tax percentage exactly', async () => {
    const shop = await setUpShop(t);
    const create = (payload: object) =>
      t.app.inject({
        method: 'POST',
        url: '/api/bpts',
        headers: shop.admin,
        payload: { name: 'T', accountId: shop.account.id, ...payload },
      });
    expect((await create({ currency: 'SAT' })).json<Bpt>()).toMatchObject({ currency: 'SAT', shareToken: null });
    expect((await create({ currency: 'XYZ' })).json<ErrorResponse>().code).toBe('InvalidCurrency');
    expect((await create({ currency: 'USD', taxPercentage: '7.25' })).json<Bpt>().taxPercentage).toBe(7.25);
    expect((await create({ currency: 'USD', taxPercentage: 101 })).json<ErrorResponse>().code).toBe(
      'InvalidTaxPercentage',
    );
  });

  it('edits, stops sharing, and deletes without losing sales', async () => {
    const shop = await setUpShop(t);
    const edited = await t.app.inject({
      method: 'PATCH',
      url: `/api/bpts/${shop.bpt.id}`,
      headers: shop.admin,
      payload: { name: 'Till A', shareable: false },
    });
    expect(edited.json<Bpt>()).toMatchObject({ name: 'Till A', shareable: false, shareToken: null });
    const removed = await t.app.inject({ method: 'DELETE', url: `/api/bpts/${shop.bpt.id}`, headers: shop.admin });
    expect(removed.statusCode).toBe(204);
    const list = await t.app.inject({ method: 'GET', url: '/api/bpts', headers: shop.admin });
    expect(list.json<Bpt[]>()).toEqual([]);
  });
});
