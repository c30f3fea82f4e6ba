import { afterEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { createTestClock } from '../../test/test-clock.ts';
import { loadConfig, parseTrustProxy } from '../config.ts';
import { listAuditEntries } from '../modules/audit/audit.repo.ts';

describe('TRUST_PROXY', () => {
  it('takes a hop count or proxy addresses, and refuses "true"', () => {
    expect(parseTrustProxy('false')).toBe(false);
    expect(parseTrustProxy('0')).toBe(false);
    expect(parseTrustProxy('1')).toBe(1);
    expect(parseTrustProxy('2')).toBe(2);
    expect(parseTrustProxy('127.0.0.1, 10.0.0.0/8,::1,fd00::/8')).toEqual([
      '127.0.0.1',
      '10.0.0.0/8',
      '::1',
      'fd00::/8',
    ]);
    expect(parseTrustProxy('loopback,uniquelocal')).toEqual(['loopback', 'uniquelocal']);
    for (const refused of ['true', 'yes', '', '10.0.0.0/33', '10.0.0.0/8/1', 'proxy.example.com', '1.2.3', '-1']) {
      expect(parseTrustProxy(refused), refused).toBeUndefined();
    }
    expect(() => loadConfig({ TRUST_PROXY: 'true' })).toThrow(/TRUST_PROXY: give the number of proxies/);
    expect(loadConfig({}).trustProxy).toBe(false);
  });
});

/** The address a refused sign-in is audited with is the address rate limits count. */
async function clientAddressSeen(t: TestApp, forwardedFor: string): Promise<string | null> {
  const answer = await t.app.inject({
    method: 'POST',
    url: '/api/auth/signin',
    payload: { email: 'nobody@example.com', password: 'Wrong-password-9' },
    headers: { 'x-forwarded-for': forwardedFor },
    remoteAddress: '127.0.0.1',
  });
  expect(answer.statusCode).toBe(401);
  const [latest] = await listAuditEntries(t.db);
  return latest?.ip ?? null;
}

describe('the client address behind proxies', () => {
  let t: TestApp | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  // The client wrote 203.0.113.66 itself; the one proxy in front of Rayo appended 198.51.100.7.
  const forwarded = '203.0.113.66, 198.51.100.7';

  it('ignores X-Forwarded-For by default', async () => {
    t = await createTestApp();
    expect(await clientAddressSeen(t, forwarded)).toBe('127.0.0.1');
  });

  it('believes only the hop the one trusted proxy added', async () => {
    t = await createTestApp({ TRUST_PROXY: '1' });
    expect(await clientAddressSeen(t, forwarded)).toBe('198.51.100.7');
  });

  it('believes hops only from the listed proxy addresses', async () => {
    t = await createTestApp({ TRUST_PROXY: '127.0.0.1' });
    expect(await clientAddressSeen(t, forwarded)).toBe('198.51.100.7');
    await t.close();
    t = await createTestApp({ TRUST_PROXY: '10.0.0.0/8' });
    expect(await clientAddressSeen(t, forwarded)).toBe('127.0.0.1');
  });
});

describe('the request budget behind a proxy', () => {
  let t: TestApp | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  const health = (forwardedFor: string) =>
    t?.app.inject({
      method: 'GET',
      url: '/api/health',
      headers: { 'x-forwarded-for': forwardedFor },
      remoteAddress: '127.0.0.1',
    });

  it("counts each client the trusted proxy names, not the proxy's own address", async () => {
    const clock = createTestClock();
    t = await createTestApp({ TRUST_PROXY: '1', REQUEST_BUDGET_ANONYMOUS_BURST: '3' }, { clock });
    for (let n = 0; n < 3; n += 1) expect((await health('203.0.113.66, 198.51.100.7'))?.statusCode).toBe(200);
    expect((await health('203.0.113.66, 198.51.100.7'))?.statusCode).toBe(429);
    // Another client behind the same proxy; what a client writes itself in the header changes nothing.
    expect((await health('198.51.100.8'))?.statusCode).toBe(200);
    expect((await health('203.0.113.1, 198.51.100.7'))?.statusCode).toBe(429);
  });

  it('counts every client as the proxy when no proxy is trusted', async () => {
    const clock = createTestClock();
    t = await createTestApp({ REQUEST_BUDGET_ANONYMOUS_BURST: '3' }, { clock });
    for (const client of ['198.51.100.1', '198.51.100.2', '198.51.100.3']) {
      expect((await health(client))?.statusCode).toBe(200);
    }
    expect((await health('198.51.100.4'))?.statusCode).toBe(429);
  });
});
