import type {
  Account,
  Bpt,
  DonationLink,
  ErrorResponse,
  Invoice,
  PaymentLink,
  PublicCheckout,
  VirtualBpt,
} from '@rayo/shared';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSse } from '../../test/sse.ts';
import {
  bearer,
  createTestApp,
  createTestOrganization,
  createTestUser,
  signIn,
  type TestApp,
} from '../../test/test-app.ts';
import { createTestClock } from '../../test/test-clock.ts';
import { loadConfig } from '../config.ts';
import { expireDueInvoices } from '../modules/ledger/settlement.service.ts';
import { STREAM_LIMITS } from './sse.ts';

/**
 * A few addresses, or fifty, hammering one public link (a shared terminal, a donation link, a
 * store's checkout button, a checkout page's events) must not shut out the cashier or the
 * merchant's own customers, who ask a few times each.
 */

let t: TestApp;
let base: string;
let admin: { authorization: string };
let account: Account;
let virtualBpt: VirtualBpt;
// Limits count in fixed minutes; each test moves the clock to a minute of its own.
const clock = createTestClock();

beforeAll(async () => {
  // An expired invoice's stream ends a second later, not the half minute a payment on its way gets.
  t = await createTestApp(
    {
      FIXED_RATES: 'GTQ=730000',
      TRUST_PROXY: 'loopback',
      EVENT_STREAM_GRACE_SECONDS: '1',
      // Each address's request budget as shipped, which the hammering must not turn against the cashier.
      REQUEST_BUDGET_ANONYMOUS_BURST: String(loadConfig({}).requestBudget.anonymous.burst),
      REQUEST_BUDGET_ANONYMOUS_PER_SECOND: String(loadConfig({}).requestBudget.anonymous.perSecond),
    },
    { jobs: true, clock },
  );
  base = await t.app.listen({ host: '127.0.0.1', port: 0 });
  const organization = await createTestOrganization(t.db);
  const user = await createTestUser(t.db, { role: 'admin', organizationId: organization.id });
  admin = bearer((await signIn(t.app, user.email, user.password)).accessToken);
  account = (await post('/api/accounts', { name: 'Counter' }, admin)).json<Account>();
  const bpt = (
    await post('/api/bpts', { name: 'Web till', accountId: account.id, currency: 'GTQ' }, admin)
  ).json<Bpt>();
  virtualBpt = (await post('/api/virtual-bpts', { name: 'Web shop', bptId: bpt.id }, admin)).json<VirtualBpt>();
}, 60_000);
afterAll(() => t?.close());

function post(url: string, payload: object, headers: Record<string, string> = {}, remoteAddress = '127.0.0.1') {
  return t.app.inject({ method: 'POST', url, payload, headers, remoteAddress });
}

function address(n: number): string {
  return `198.51.${Math.floor(n / 250)}.${(n % 250) + 1}`;
}

/** Each of `callers` addresses calls `times` times, ten addresses at once; answers their statuses. */
async function hammer(
  callers: number,
  times: number,
  call: (remoteAddress: string) => Promise<LightMyRequestResponse>,
) {
  const statuses: number[] = [];
  for (let first = 0; first < callers; first += 10) {
    const group = Array.from({ length: Math.min(10, callers - first) }, (_, i) => address(first + i));
    await Promise.all(
      group.map(async (remoteAddress) => {
        for (let n = 0; n < times; n += 1) statuses.push((await call(remoteAddress)).statusCode);
      }),
    );
  }
  return statuses;
}

function expectRefused(response: LightMyRequestResponse) {
  expect(response.statusCode, response.body).toBe(429);
  expect(response.json<ErrorResponse>().code).toBe('TooManyRequests');
}

describe('a shared terminal', () => {
  let token: string;
  const charge = (remoteAddress: string) => post(`/api/terminal/${token}/invoices`, { amount: '5' }, {}, remoteAddress);

  beforeAll(async () => {
    const payload = { name: 'Shared till', accountId: account.id, currency: 'GTQ', shareable: true };
    token = (await post('/api/bpts', payload, admin)).json<Bpt>().shareToken as string;
  });

  it("still charges for the cashier once 4 addresses have used the link's 120 a minute", async () => {
    clock.advance(60_000);
    const statuses = await hammer(4, 31, charge);
    expect(statuses.filter((status) => status === 201)).toHaveLength(120);
    for (let sale = 0; sale < 3; sale += 1) expect((await charge('203.0.113.50')).statusCode).toBe(201);
    expectRefused(await charge(address(0)));
  }, 120_000);

  it('still charges for the cashier while 50 addresses hammer the link', async () => {
    clock.advance(60_000);
    const statuses = await hammer(50, 8, charge);
    expect(statuses.filter((status) => status === 429).length).toBeGreaterThan(0);
    for (let sale = 0; sale < 3; sale += 1) expect((await charge('203.0.113.51')).statusCode).toBe(201);
    // Each of the fifty got at most its guaranteed share once the link's budget was spent.
    expect(statuses.filter((status) => status === 201).length).toBeLessThanOrEqual(120 + 50 * 6);
  }, 120_000);
});

describe('a donation link', () => {
  let linkId: string;
  const ask = (remoteAddress: string) =>
    post(`/api/public/donation-links/${linkId}/invoices`, { amountSats: 1000 }, {}, remoteAddress);

  beforeAll(async () => {
    const payload = { virtualBptId: virtualBpt.id, title: 'Plant a tree' };
    linkId = (await post('/api/donation-links', payload, admin)).json<DonationLink>().id;
  });

  it('still gives a donor an invoice once 6 addresses have asked 20 times each', async () => {
    clock.advance(60_000);
    await hammer(6, 20, ask);
    expect((await ask('203.0.113.60')).statusCode).toBe(201);
  }, 120_000);

  it('still gives a donor an invoice while 50 addresses hammer the link', async () => {
    clock.advance(60_000);
    await hammer(50, 12, ask);
    expect((await ask('203.0.113.61')).statusCode).toBe(201);
    expect((await ask('203.0.113.61')).statusCode).toBe(201);
  }, 120_000);
});

describe("a store's public checkout button", () => {
  const create = (remoteAddress: string) =>
    post(
      `/api/public/virtual-bpts/${virtualBpt.id}/checkouts`,
      { amount: '73.00', currency: 'GTQ' },
      {},
      remoteAddress,
    );

  it('still opens a checkout for a shopper once 15 addresses have used the button 20 times each', async () => {
    clock.advance(60_000);
    await hammer(15, 20, create);
    expect((await create('203.0.113.70')).statusCode).toBe(201);
  }, 120_000);

  it('still opens a checkout for a shopper while 50 addresses hammer the button', async () => {
    clock.advance(60_000);
    await hammer(50, 11, create);
    expect((await create('203.0.113.71')).statusCode).toBe(201);
  }, 120_000);
});

describe("a checkout's page", () => {
  let checkoutId: string;
  const read = (remoteAddress: string) =>
    t.app.inject({ method: 'GET', url: `/api/public/checkouts/${checkoutId}`, remoteAddress });

  beforeAll(async () => {
    const payload = { description: 'Cake', amount: '73', currency: 'GTQ' };
    checkoutId = (await post(`/api/virtual-bpts/${virtualBpt.id}/payment-links`, payload, admin)).json<PaymentLink>()
      .id;
  });

  it("still reads for the payer while other addresses use up the checkout's reads", async () => {
    clock.advance(60_000);
    await hammer(10, 31, read);
    for (let n = 0; n < 5; n += 1) expect((await read('203.0.113.80')).statusCode).toBe(200);
  }, 120_000);

  it(`still streams to a payer while 50 addresses hold ${STREAM_LIMITS.perKey} streams each`, async () => {
    const invoice = (await post(`/api/bpts/${(await firstBpt()).id}/invoices`, { amount: '5' }, admin)).json<Invoice>();
    const url = `${base}/api/invoices/${invoice.id}/events`;
    const held: Array<Awaited<ReturnType<typeof openSse>>> = [];
    try {
      for (let caller = 0; caller < 50; caller += 1) {
        const forwarded = { 'x-forwarded-for': address(caller) };
        const streams = await Promise.all(Array.from({ length: STREAM_LIMITS.perKey }, () => openSse(url, forwarded)));
        held.push(...streams);
      }
      // A thousand places held: the process's mark, past which holding a fair share is enough.
      const payer = await openSse(`${base}/api/public/checkouts/${checkoutId}/events`, {
        'x-forwarded-for': '203.0.113.81',
      });
      expect((await payer.next()).data).toEqual({ id: checkoutId, status: 'awaiting_payment' });
      payer.close();
    } finally {
      for (const stream of held) stream.close();
    }
  }, 120_000);
});

async function firstBpt(): Promise<Bpt> {
  const list = await t.app.inject({ method: 'GET', url: '/api/bpts', headers: admin });
  return (list.json<Bpt[]>()[0] as Bpt) ?? expect.fail('no terminal');
}

describe('an event stream', () => {
  it('ends once its invoice is paid, or a grace period after it expired', async () => {
    const bpt = await firstBpt();
    const charge = async () => (await post(`/api/bpts/${bpt.id}/invoices`, { amount: '5' }, admin)).json<Invoice>();
    const expiring = await charge();
    const stream = await openSse(`${base}/api/invoices/${expiring.id}/events`);
    expect((await stream.next()).data).toEqual({ id: expiring.id, status: 'pending' });
    await expireDueInvoices(t.db, new Date(Date.now() + 24 * 3600_000));
    expect((await stream.next()).data).toEqual({ id: expiring.id, status: 'expired' });
    await stream.end();

    const paid = await charge();
    const watched = await openSse(`${base}/api/invoices/${paid.id}/events`);
    expect((await watched.next()).data).toEqual({ id: paid.id, status: 'pending' });
    expect((await post('/api/devnet/pay', { paymentRequest: paid.paymentRequest })).statusCode).toBe(200);
    expect((await watched.next(15_000)).data).toEqual({ id: paid.id, status: 'settled' });
    await watched.end();

    // Opened to an invoice already final, it answers the status and ends.
    const late = await openSse(`${base}/api/invoices/${expiring.id}/events`);
    expect((await late.next()).data).toEqual({ id: expiring.id, status: 'expired' });
    await late.end();
  });

  it('ends once its checkout is paid', async () => {
    const payload = { description: 'Pie', amount: '12', currency: 'GTQ' };
    const link = (await post(`/api/virtual-bpts/${virtualBpt.id}/payment-links`, payload, admin)).json<PaymentLink>();
    const checkout = (
      await t.app.inject({ method: 'GET', url: `/api/public/checkouts/${link.id}` })
    ).json<PublicCheckout>();
    const stream = await openSse(`${base}/api/public/checkouts/${link.id}/events`);
    expect((await stream.next()).data).toEqual({ id: link.id, status: 'awaiting_payment' });
    const paymentRequest = checkout.invoice?.paymentRequest ?? expect.fail('no invoice');
    expect((await post('/api/devnet/pay', { paymentRequest })).statusCode).toBe(200);
    expect((await stream.next(15_000)).data).toEqual({ id: link.id, status: 'paid' });
    await stream.end();
  });
});
