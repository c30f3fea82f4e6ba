import type { ErrorResponse } from '@rayo/shared';
import { afterEach, describe, expect, it } from 'vitest';
import { startServerProcess } from '../../../test/server-process.ts';
import { createTestApp, createTestDatabase, type TestApp } from '../../../test/test-app.ts';
import { createDevnetBackend } from '../../adapters/lightning/devnet.ts';

/**
 * Devnet is the default backend, and its wallet pays any invoice, mines and sends coins without
 * a session: only callers on the machine Rayo runs on may use it, unless DEVNET_PUBLIC is set.
 */

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

type Caller = { remoteAddress: string; headers?: Record<string, string> };
const outsider: Caller = { remoteAddress: '203.0.113.9' };

/** An unpaid devnet invoice, and what the devnet node says of it now. */
async function unpaidInvoice(app: TestApp) {
  const node = createDevnetBackend(app.db, { databaseUrl: app.config.databaseUrl as string });
  const invoice = await node.createInvoice({ amountMsat: 5_000n, description: 'Sale', expirySeconds: 600 });
  const state = async () => (await node.lookupInvoice(invoice.paymentHash)).state;
  return { invoice, state, settled: async () => (await state()) === 'settled' };
}

/** Every devnet call, as `caller`. */
function callEach(app: TestApp, caller: Caller, paymentRequest: string) {
  const calls: Array<{ method: 'GET' | 'POST'; url: string; payload?: object }> = [
    { method: 'POST', url: '/api/devnet/pay', payload: { paymentRequest } },
    { method: 'POST', url: '/api/devnet/expire', payload: { paymentRequest } },
    { method: 'POST', url: '/api/devnet/lnurl-withdraw', payload: {} },
    { method: 'GET', url: '/api/devnet/lnurlw/abc' },
    { method: 'GET', url: '/api/devnet/lnurlw/abc/callback?k1=abc&pr=lnbcrt1' },
    { method: 'GET', url: '/api/devnet/chain' },
    { method: 'POST', url: '/api/devnet/mine', payload: { blocks: 1 } },
    { method: 'POST', url: '/api/devnet/send-onchain', payload: { address: 'bcrt1qxyz', sats: 1000 } },
  ];
  return Promise.all(calls.map((call) => app.app.inject({ ...call, ...caller })));
}

describe('the devnet wallet', () => {
  it('refuses every call from another machine, and neither pays nor ends anything', async () => {
    t = await createTestApp({}, { jobs: true });
    const { invoice, state } = await unpaidInvoice(t);
    for (const answer of await callEach(t, outsider, invoice.paymentRequest)) {
      expect(answer.statusCode, answer.body).toBe(403);
      expect(answer.json<ErrorResponse>()).toEqual({
        code: 'Forbidden',
        message:
          'The devnet wallet answers only on the machine Rayo runs on; DEVNET_PUBLIC=true opens it to every address',
      });
    }
    expect(await state()).toBe('open');
    const tip = await t.app.inject({ method: 'GET', url: '/api/devnet/chain' });
    expect(tip.json()).toMatchObject({ height: 0 });
  });

  it('refuses a client a proxy on this machine forwards, whether or not TRUST_PROXY names the proxy', async () => {
    const forwarded: Caller[] = [
      { remoteAddress: '127.0.0.1', headers: { 'x-forwarded-for': '203.0.113.9' } },
      { remoteAddress: '127.0.0.1', headers: { 'x-forwarded-for': '127.0.0.1, 203.0.113.9' } },
      { remoteAddress: '::1', headers: { forwarded: 'for=203.0.113.9' } },
    ];
    for (const trustProxy of [undefined, '127.0.0.1']) {
      t = await createTestApp(trustProxy ? { TRUST_PROXY: trustProxy } : {}, { jobs: true });
      const { invoice } = await unpaidInvoice(t);
      for (const caller of forwarded) {
        const answer = await t.app.inject({ method: 'POST', url: '/api/devnet/pay', payload: invoice, ...caller });
        expect(answer.statusCode, JSON.stringify(caller)).toBe(403);
      }
      await t.close();
      t = undefined;
    }
  });

  it('answers this machine, over IPv4 and IPv6, and a local client behind a trusted local proxy', async () => {
    t = await createTestApp({ TRUST_PROXY: 'loopback' }, { jobs: true });
    const callers: Caller[] = [
      { remoteAddress: '127.0.0.1' },
      { remoteAddress: '::1' },
      { remoteAddress: '::ffff:127.0.0.1' },
      { remoteAddress: '127.0.0.1', headers: { 'x-forwarded-for': '127.0.0.1' } },
    ];
    for (const caller of callers) {
      const { invoice, settled } = await unpaidInvoice(t);
      const answer = await t.app.inject({ method: 'POST', url: '/api/devnet/pay', payload: invoice, ...caller });
      expect(answer.statusCode, answer.body).toBe(200);
      expect(await settled()).toBe(true);
    }
  });

  it('answers every address with DEVNET_PUBLIC=true', async () => {
    t = await createTestApp({ DEVNET_PUBLIC: 'true' }, { jobs: true });
    const { invoice, settled } = await unpaidInvoice(t);
    const answer = await t.app.inject({ method: 'POST', url: '/api/devnet/pay', payload: invoice, ...outsider });
    expect(answer.statusCode, answer.body).toBe(200);
    expect(await settled()).toBe(true);
    const mined = await t.app.inject({ method: 'POST', url: '/api/devnet/mine', payload: { blocks: 1 }, ...outsider });
    expect(mined.statusCode, mined.body).toBe(200);
  });
});

describe('the start banner', () => {
  it('says whether the devnet wallet answers only this machine', async () => {
    const database = await createTestDatabase();
    try {
      for (const [devnetPublic, line] of [
        [
          'false',
          'The devnet wallet (pay, mine, send) answers only callers on this machine; DEVNET_PUBLIC=true opens it to every address.',
        ],
        [
          'true',
          'DEVNET_PUBLIC=true: anyone who reaches Rayo may pay invoices, mine blocks and send coins from the devnet wallet.',
        ],
      ] as const) {
        const server = await startServerProcess(database.url, { DEVNET_PUBLIC: devnetPublic });
        try {
          await expect.poll(() => server.output(), { timeout: 30_000 }).toContain('Rayo is running on');
          expect(server.output()).toContain(line);
          expect(server.output()).not.toContain(
            devnetPublic === 'true' ? 'only callers on this machine' : 'anyone who reaches Rayo',
          );
        } finally {
          await server.stop();
        }
      }
    } finally {
      await database.drop();
    }
  }, 240_000);
});
