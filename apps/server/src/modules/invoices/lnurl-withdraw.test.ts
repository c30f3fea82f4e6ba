import { once } from 'node:events';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import type { Account, Bpt, ErrorResponse, Invoice } from '@rayo/shared';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  bearer,
  createTestApp,
  createTestOrganization,
  createTestUser,
  signIn,
  type TestApp,
} from '../../../test/test-app.ts';
import { createTestClock } from '../../../test/test-clock.ts';
import { waitFor } from '../../../test/wait-for.ts';

async function freePort(): Promise<number> {
  const server = net.createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  server.close();
  await once(server, 'close');
  return port;
}

/** A Bolt Card service on 127.0.0.1 whose card read can refuse, or be held until released. */
async function startCardService() {
  const requests: string[] = [];
  const held: http.ServerResponse[] = [];
  let mode: 'pay' | 'refuse' | 'hold' = 'pay';
  let base = '';
  const send = (response: http.ServerResponse, body: object) =>
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  const server = http.createServer((request, response) => {
    const url = new URL(request.url ?? '/', base);
    requests.push(url.pathname);
    if (url.pathname === '/ln/callback') return send(response, { status: 'OK' });
    if (mode === 'hold') return held.push(response);
    if (mode === 'refuse') return send(response, { status: 'ERROR', reason: 'Secret internal detail 42' });
    send(response, {
      tag: 'withdrawRequest',
      callback: `${base}/ln/callback`,
      k1: 'k1',
      minWithdrawable: 1_000,
      maxWithdrawable: 100_000_000,
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    requests,
    held,
    link: `lnurlw://${base.slice('http://'.length)}/ln`,
    setMode(next: typeof mode) {
      mode = next;
      requests.length = 0;
    },
    release() {
      for (const response of held.splice(0)) send(response, { status: 'ERROR', reason: 'Released' });
    },
    async stop() {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}

async function openShop(t: TestApp) {
  const organization = await createTestOrganization(t.db);
  const user = await createTestUser(t.db, { role: 'admin', organizationId: organization.id });
  const headers = bearer((await signIn(t.app, user.email, user.password)).accessToken);
  const post = async <T>(url: string, payload: object): Promise<T> => {
    const response = await t.app.inject({ method: 'POST', url, headers, payload });
    expect(response.statusCode, response.body).toBeLessThan(300);
    return response.json<T>();
  };
  const account = await post<Account>('/api/accounts', { name: 'Counter' });
  const bpt = await post<Bpt>('/api/bpts', { name: 'Till', accountId: account.id, currency: 'USD' });
  return { charge: () => post<Invoice>(`/api/bpts/${bpt.id}/invoices`, { amount: '3.75' }) };
}

function payWithCard(t: TestApp, invoiceId: string, lnurl: string, remoteAddress = '127.0.0.1') {
  return t.app.inject({
    method: 'POST',
    url: `/api/invoices/${invoiceId}/lnurl-withdraw`,
    payload: { lnurl },
    remoteAddress,
  });
}

describe('paying by LNURL-withdraw, with the default settings', () => {
  let t: TestApp;
  let shop: Awaited<ReturnType<typeof openShop>>;
  let card: Awaited<ReturnType<typeof startCardService>>;
  // Rate limits count in fixed minutes; each burst moves the clock to a minute of its own.
  const clock = createTestClock();

  beforeAll(async () => {
    const port = await freePort();
    t = await createTestApp({ PUBLIC_URL: `http://127.0.0.1:${port}` }, { clock });
    await t.app.listen({ host: '127.0.0.1', port });
    shop = await openShop(t);
    card = await startCardService();
  });
  afterAll(async () => {
    await card?.stop();
    await t?.close();
  });
  beforeEach(() => card.setMode('pay'));

  it('does not fetch a link on a loopback address, even under devnet', async () => {
    const invoice = await shop.charge();
    const response = await payWithCard(t, invoice.id, card.link);
    expect(response.statusCode).toBe(400);
    expect(response.json<ErrorResponse>()).toEqual({
      code: 'InvalidLnurlWithdraw',
      message: "The card's service could not be reached for the card read",
    });
    expect(card.requests).toEqual([]);
  });

  it("pays with the devnet wallet's card link, which points at Rayo's own public URL", async () => {
    const invoice = await shop.charge();
    const link = await t.app.inject({ method: 'POST', url: '/api/devnet/lnurl-withdraw', payload: {} });
    const response = await payWithCard(t, invoice.id, link.json<{ lnurl: string }>().lnurl);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json<Invoice>().id).toBe(invoice.id);
  });

  it('refuses the 11th attempt on one invoice within a minute, whoever makes it', async () => {
    const invoice = await shop.charge();
    clock.advance(60_000);
    for (let n = 0; n < 10; n++) {
      const response = await payWithCard(t, invoice.id, 'lnurlw://127.0.0.1:1/ln', `198.51.100.${n + 1}`);
      expect(response.statusCode, response.body).toBe(400);
    }
    const blocked = await payWithCard(t, invoice.id, 'lnurlw://127.0.0.1:1/ln', '198.51.100.99');
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json<ErrorResponse>().code).toBe('TooManyRequests');
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('refuses the 31st attempt from one address within a minute, whatever the invoice', async () => {
    clock.advance(60_000);
    for (let n = 0; n < 30; n++) {
      const response = await payWithCard(t, crypto.randomUUID(), 'lnurlw://127.0.0.1:1/ln', '203.0.113.7');
      expect(response.statusCode, response.body).toBe(404);
    }
    const blocked = await payWithCard(t, crypto.randomUUID(), 'lnurlw://127.0.0.1:1/ln', '203.0.113.7');
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json<ErrorResponse>().code).toBe('TooManyRequests');
  });
});

describe('paying by LNURL-withdraw with LNURL_ALLOW_PRIVATE_HOSTS, as tests and local setups do', () => {
  let t: TestApp;
  let shop: Awaited<ReturnType<typeof openShop>>;
  let card: Awaited<ReturnType<typeof startCardService>>;

  beforeAll(async () => {
    t = await createTestApp({ LNURL_ALLOW_PRIVATE_HOSTS: 'true' });
    shop = await openShop(t);
    card = await startCardService();
  });
  afterAll(async () => {
    await card?.stop();
    await t?.close();
  });
  beforeEach(() => card.setMode('pay'));

  it('reaches a card service on loopback', async () => {
    const invoice = await shop.charge();
    const response = await payWithCard(t, invoice.id, card.link);
    expect(response.statusCode, response.body).toBe(200);
    expect(card.requests).toEqual(['/ln', '/ln/callback']);
  });

  it("answers the service's refusal with our own words, not its reason", async () => {
    card.setMode('refuse');
    const invoice = await shop.charge();
    const response = await payWithCard(t, invoice.id, card.link);
    expect(response.statusCode).toBe(400);
    expect(response.body).not.toContain('Secret internal detail');
    expect(response.json<ErrorResponse>()).toEqual({
      code: 'InvalidLnurlWithdraw',
      message: "The card's service refused the card read",
    });
  });

  it('lets one address wait on at most 4 card services at once', async () => {
    card.setMode('hold');
    const invoice = await shop.charge();
    const waiting = Array.from({ length: 4 }, () => payWithCard(t, invoice.id, card.link, '192.0.2.50'));
    await waitFor(() => card.held.length >= 4, 3_000);
    expect(card.held).toHaveLength(4);

    const fifth = await payWithCard(t, invoice.id, card.link, '192.0.2.50');
    expect(fifth.statusCode).toBe(429);
    expect(fifth.json<ErrorResponse>().code).toBe('TooManyRequests');
    const elsewhere = payWithCard(t, invoice.id, card.link, '192.0.2.51');

    card.release();
    for (const response of await Promise.all(waiting)) expect(response.statusCode).toBe(400);
    await waitFor(() => card.held.length >= 1);
    card.release();
    expect((await elsewhere).statusCode).toBe(400);
  });
});
