import { once } from 'node:events';
import net, { type AddressInfo } from 'node:net';
import { AppError, type ErrorResponse, type Invoice } from '@rayo/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSse } from '../../../test/sse.ts';
import { createTestAccount, createTestApp, openTestShop, type TestApp } from '../../../test/test-app.ts';
import { createDevnetBackend } from '../../adapters/lightning/devnet.ts';
import type { LightningBackend } from '../../adapters/lightning/types.ts';
import { redeemLnurlWithdraw } from '../../adapters/lnurl/withdraw-client.ts';

async function freePort(): Promise<number> {
  const server = net.createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  server.close();
  await once(server, 'close');
  return port;
}

let t: TestApp;
let base: string;
let node: LightningBackend;

beforeAll(async () => {
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  t = await createTestApp({ PUBLIC_URL: base }, { jobs: true });
  await t.app.listen({ host: '127.0.0.1', port });
  // The same node as the app's: the node key lives in the shared database.
  node = createDevnetBackend(t.db, { databaseUrl: t.config.databaseUrl as string });
});
afterAll(() => t?.close());

function charge(amountMsat: bigint) {
  return node.createInvoice({ amountMsat, description: 'Devnet sale', expirySeconds: 600 });
}

async function withdrawLink(maxMsat?: number): Promise<string> {
  const response = await fetch(`${base}/api/devnet/lnurl-withdraw`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(maxMsat === undefined ? {} : { maxMsat }),
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { lnurl: string }).lnurl;
}

function linkUrl(lnurl: string): string {
  return lnurl.replace('lnurlw://', 'http://');
}

async function getJson(url: string): Promise<{ status: number; cors: string | null; body: Record<string, unknown> }> {
  const response = await fetch(url);
  return {
    status: response.status,
    cors: response.headers.get('access-control-allow-origin'),
    body: (await response.json()) as Record<string, unknown>,
  };
}

function callbackUrl(lnurl: string, query: Record<string, string>): string {
  return `${linkUrl(lnurl)}/callback?${new URLSearchParams(query)}`;
}

describe('POST /api/devnet/expire', () => {
  it("ends a terminal sale's invoice now: Rayo tells its watchers, and the node pays it no more", async () => {
    const { organization, admin } = await openTestShop(t);
    const account = await createTestAccount(t.db, organization.id, 'Counter');
    const bpt = await t.app.inject({
      method: 'POST',
      url: '/api/bpts',
      headers: admin,
      payload: { name: 'Till', accountId: account.id, channel: 'store', currency: 'GTQ' },
    });
    expect(bpt.statusCode, bpt.body).toBe(201);
    const charged = await t.app.inject({
      method: 'POST',
      url: `/api/bpts/${bpt.json<{ id: string }>().id}/invoices`,
      headers: admin,
      payload: { amount: '5' },
    });
    expect(charged.statusCode, charged.body).toBe(201);
    const invoice = charged.json<Invoice>();
    const events = await openSse(`${base}/api/invoices/${invoice.id}/events`);
    expect(await events.next()).toEqual({ event: 'status', data: { id: invoice.id, status: 'pending' } });

    const expire = () =>
      t.app.inject({ method: 'POST', url: '/api/devnet/expire', payload: { paymentRequest: invoice.paymentRequest } });
    const expired = await expire();
    expect(expired.statusCode, expired.body).toBe(204);
    expect(await events.next()).toEqual({ event: 'status', data: { id: invoice.id, status: 'expired' } });
    events.close();
    expect((await t.app.inject({ method: 'GET', url: `/api/invoices/${invoice.id}` })).json()).toMatchObject({
      status: 'expired',
    });
    expect((await node.lookupInvoice(invoice.paymentHash)).state).toBe('expired');
    const paid = await t.app.inject({ method: 'POST', url: '/api/devnet/pay', payload: invoice });
    expect(paid.statusCode).toBe(400);
    expect(paid.json<ErrorResponse>().message).toMatch(/^This invoice expired at /);
    // Asking again changes nothing.
    expect((await expire()).statusCode).toBe(204);
  });

  it('refuses an invoice already paid and what is not a devnet invoice', async () => {
    const invoice = await charge(1_000n);
    expect((await t.app.inject({ method: 'POST', url: '/api/devnet/pay', payload: invoice })).statusCode).toBe(200);
    const paid = await t.app.inject({ method: 'POST', url: '/api/devnet/expire', payload: invoice });
    expect(paid.statusCode).toBe(409);
    expect(paid.json<ErrorResponse>().code).toBe('InvoiceNotPending');
    expect((await node.lookupInvoice(invoice.paymentHash)).state).toBe('settled');

    for (const paymentRequest of ['hello', 'lnbc1invalid']) {
      const refused = await t.app.inject({ method: 'POST', url: '/api/devnet/expire', payload: { paymentRequest } });
      expect(refused.statusCode, paymentRequest).toBe(400);
      expect(refused.json<ErrorResponse>().code).toBe('InvalidInput');
    }
  });
});

describe('POST /api/devnet/pay', () => {
  it('settles a devnet invoice and answers its hash and amount', async () => {
    const invoice = await charge(2_500_000n);
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/devnet/pay',
      payload: { paymentRequest: ` lightning:${invoice.paymentRequest} ` },
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ paymentHash: invoice.paymentHash, amountMsat: 2_500_000 });
    expect((await node.lookupInvoice(invoice.paymentHash)).state).toBe('settled');
  });

  it('answers 409 InvoiceNotPending for an invoice already paid', async () => {
    const invoice = await charge(1_000n);
    const pay = () => t.app.inject({ method: 'POST', url: '/api/devnet/pay', payload: invoice });
    expect((await pay()).statusCode).toBe(200);
    const second = await pay();
    expect(second.statusCode).toBe(409);
    expect(second.json<ErrorResponse>()).toEqual({
      code: 'InvoiceNotPending',
      message: 'This invoice is already paid',
    });
  });

  it('answers 400 InvalidInput for what is not a devnet invoice', async () => {
    for (const paymentRequest of ['hello', 'lnbc1invalid']) {
      const response = await t.app.inject({ method: 'POST', url: '/api/devnet/pay', payload: { paymentRequest } });
      expect(response.statusCode).toBe(400);
      expect(response.json<ErrorResponse>().code).toBe('InvalidInput');
    }
  });
});

describe('the devnet Bolt Card service (LUD-03)', () => {
  it('makes a one-time lnurlw:// link on the public URL, which a terminal redeems like a card tap', async () => {
    const lnurl = await withdrawLink(5_000_000);
    expect(lnurl).toMatch(/^lnurlw:\/\/127\.0\.0\.1:\d+\/api\/devnet\/lnurlw\/[0-9a-f]{64}$/);
    const invoice = await charge(4_000_000n);
    // As the terminal route redeems it under devnet: loopback HTTP, and Rayo's own origin trusted.
    const terminal = { allowInsecureLoopback: true, trustedOrigin: base, log: { debug: () => {} } };
    await redeemLnurlWithdraw({ ...terminal, lnurl, paymentRequest: invoice.paymentRequest, amountMsat: 4_000_000n });
    expect((await node.lookupInvoice(invoice.paymentHash)).state).toBe('settled');

    const next = await charge(1_000n);
    const reuse = redeemLnurlWithdraw({ ...terminal, lnurl, paymentRequest: next.paymentRequest, amountMsat: 1_000n });
    await expect(reuse).rejects.toBeInstanceOf(AppError);
    await expect(reuse).rejects.toThrow("The card's service refused the card read");
    expect((await getJson(linkUrl(lnurl))).body).toEqual({
      status: 'ERROR',
      reason: 'This withdraw link was already used',
    });
    expect((await node.lookupInvoice(next.paymentHash)).state).toBe('open');
  });

  it('answers the withdrawRequest with CORS open to every origin', async () => {
    const lnurl = await withdrawLink(7_000);
    const k1 = lnurl.split('/').pop();
    const offer = await getJson(linkUrl(lnurl));
    expect(offer).toEqual({
      status: 200,
      cors: '*',
      body: {
        tag: 'withdrawRequest',
        callback: `${base}/api/devnet/lnurlw/${k1}/callback`,
        k1,
        defaultDescription: 'Rayo devnet Bolt Card',
        minWithdrawable: 1_000,
        maxWithdrawable: 7_000,
      },
    });
  });

  it('pays up to one bitcoin when the link was made without a limit', async () => {
    const link = await withdrawLink();
    expect((await getJson(linkUrl(link))).body.maxWithdrawable).toBe(100_000_000_000);
  });

  it('refuses a limit under one satoshi', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/devnet/lnurl-withdraw',
      payload: { maxMsat: 999 },
    });
    expect(response.statusCode).toBe(400);
  });

  it('answers LNURL errors with HTTP 200 for unknown links and incomplete callbacks', async () => {
    const unknown = await getJson(`${base}/api/devnet/lnurlw/nope`);
    expect(unknown).toEqual({ status: 200, cors: '*', body: { status: 'ERROR', reason: 'Unknown withdraw link' } });

    const lnurl = await withdrawLink();
    const k1 = lnurl.split('/').pop() as string;
    expect((await getJson(callbackUrl(lnurl, { k1 }))).body).toEqual({
      status: 'ERROR',
      reason: 'Both k1 and pr are required',
    });
    const invoice = await charge(1_000n);
    expect((await getJson(callbackUrl(lnurl, { k1: 'f'.repeat(64), pr: invoice.paymentRequest }))).body).toEqual({
      status: 'ERROR',
      reason: 'k1 does not belong to this withdraw link',
    });
    expect((await getJson(callbackUrl(lnurl, { k1, pr: 'not an invoice' }))).body.status).toBe('ERROR');
  });

  it('leaves the link usable when the payment is refused', async () => {
    const lnurl = await withdrawLink(10_000);
    const k1 = lnurl.split('/').pop() as string;

    const tooLarge = await charge(10_001n);
    expect((await getJson(callbackUrl(lnurl, { k1, pr: tooLarge.paymentRequest }))).body).toEqual({
      status: 'ERROR',
      reason: 'This link pays at most 10000 msat',
    });
    const paid = await charge(2_000n);
    await node.payInvoice(paid.paymentRequest, { maxFeeMsat: 0n, timeoutSeconds: 10 });
    expect((await getJson(callbackUrl(lnurl, { k1, pr: paid.paymentRequest }))).body).toEqual({
      status: 'ERROR',
      reason: 'This invoice is already paid',
    });

    const good = await charge(10_000n);
    expect((await getJson(callbackUrl(lnurl, { k1, pr: good.paymentRequest }))).body).toEqual({ status: 'OK' });
    expect((await node.lookupInvoice(good.paymentHash)).state).toBe('settled');
    expect((await node.lookupInvoice(tooLarge.paymentHash)).state).toBe('open');
  });

  it('pays once when two callbacks race on the same link', async () => {
    const lnurl = await withdrawLink();
    const k1 = lnurl.split('/').pop() as string;
    const invoices = await Promise.all([charge(1_000n), charge(2_000n), charge(3_000n)]);
    const answers = await Promise.all(
      invoices.map((invoice) => getJson(callbackUrl(lnurl, { k1, pr: invoice.paymentRequest }))),
    );
    expect(answers.filter((answer) => answer.body.status === 'OK')).toHaveLength(1);
    const states = await Promise.all(invoices.map((invoice) => node.lookupInvoice(invoice.paymentHash)));
    expect(states.filter((lookup) => lookup.state === 'settled')).toHaveLength(1);
  });
});

describe('POST /api/devnet/withdraw', () => {
  it("receives into the devnet wallet from an LNURL-withdraw link, within the link's limits", async () => {
    const lnurl = await withdrawLink(5_000);
    const withdraw = (amountMsat: number) =>
      t.app.inject({ method: 'POST', url: '/api/devnet/withdraw', payload: { lnurl, amountMsat } });
    const above = await withdraw(6_000);
    expect(above.statusCode, above.body).toBe(400);
    expect(above.json<ErrorResponse>().code).toBe('InvalidLnurlWithdraw');
    const response = await withdraw(3_000);
    expect(response.statusCode, response.body).toBe(200);
    const { paymentHash } = response.json<{ paymentHash: string }>();
    expect((await node.lookupInvoice(paymentHash)).state).toBe('settled');
    // The link is used up: a second withdrawal is refused.
    expect((await withdraw(3_000)).statusCode).toBe(400);
  });
});
