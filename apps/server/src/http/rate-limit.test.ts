import type { ErrorResponse } from '@rayo/shared';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestApp,
  createTestOrganization,
  createTestUser,
  TEST_PASSWORD,
  type TestApp,
} from '../../test/test-app.ts';

// auth.test.ts shows each sign-in limit refusing; these show that a limit ends with its window.
// A day-long window holds a burst whatever the machine's load; the window then passes by moving
// the counted windows a day back, as the clock would, rather than by sleeping through it.
const WINDOW_SECONDS = 24 * 60 * 60;

describe('sign-in limits end with their window', () => {
  let t: TestApp;
  let organizationId: string;

  beforeAll(async () => {
    t = await createTestApp({
      SIGNIN_LIMIT_PER_EMAIL: '2',
      SIGNIN_LIMIT_PER_IP: '4',
      SIGNIN_LIMIT_WINDOW_SECONDS: String(WINDOW_SECONDS),
    });
    organizationId = (await createTestOrganization(t.db)).id;
  });
  afterAll(() => t?.close());

  function signIn(email: string, password: string, remoteAddress: string) {
    return t.app.inject({ method: 'POST', url: '/api/auth/signin', payload: { email, password }, remoteAddress });
  }

  /** Sent at once, the attempts are counted before any password is checked, well within a window. */
  async function exhaust(attempt: (n: number) => ReturnType<typeof signIn>, limit: number) {
    const responses = await Promise.all(Array.from({ length: limit + 1 }, (_, n) => attempt(n)));
    const statuses = responses.map((response) => response.statusCode).sort();
    expect(statuses).toEqual([...Array.from({ length: limit }, () => 401), 429]);
    const blocked = responses.find((response) => response.statusCode === 429);
    expect(blocked?.json<ErrorResponse>().code).toBe('TooManyRequests');
  }

  async function waitOut(retryAfter: string | string[] | number | undefined) {
    const seconds = Number(retryAfter);
    expect(seconds).toBeGreaterThan(0);
    expect(seconds).toBeLessThanOrEqual(WINDOW_SECONDS);
    await sql`update rate_limit_hits set window_start = window_start - make_interval(secs => ${WINDOW_SECONDS})`.execute(
      t.db,
    );
  }

  it('refuses an email past its limit at that address, even with the right password, until the window passes', async () => {
    const user = await createTestUser(t.db, { role: 'admin', organizationId });
    await exhaust(() => signIn(user.email, 'Wrong-password-1', '198.51.100.40'), 2);
    const right = await signIn(user.email, TEST_PASSWORD, '198.51.100.40');
    expect(right.statusCode).toBe(429);

    await waitOut(right.headers['retry-after']);
    expect((await signIn(user.email, TEST_PASSWORD, '198.51.100.40')).statusCode).toBe(200);
  });

  it('refuses an address past its limit, whatever the email, until the window passes', async () => {
    const user = await createTestUser(t.db, { role: 'admin', organizationId });
    const address = '203.0.113.40';
    await exhaust((n) => signIn(`nobody-${n}@example.com`, TEST_PASSWORD, address), 4);
    const right = await signIn(user.email, TEST_PASSWORD, address);
    expect(right.statusCode).toBe(429);

    await waitOut(right.headers['retry-after']);
    expect((await signIn(user.email, TEST_PASSWORD, address)).statusCode).toBe(200);
  });
});

describe('the caller a limit counts', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ SIGNIN_LIMIT_PER_IP: '4', SIGNIN_LIMIT_WINDOW_SECONDS: String(WINDOW_SECONDS) });
  });
  afterAll(() => t?.close());

  function signInFrom(remoteAddress: string, n: number) {
    const payload = { email: `nobody-${n}@example.com`, password: 'Wrong-password-1' };
    return t.app.inject({ method: 'POST', url: '/api/auth/signin', payload, remoteAddress });
  }

  it('is a whole IPv6 /64, so a fresh address of it per try gets no fresh budget', async () => {
    for (let n = 1; n <= 4; n += 1) expect((await signInFrom(`2001:db8:7:8::${n}`, n)).statusCode).toBe(401);
    expect((await signInFrom('2001:db8:7:8:ffff:1:2:3', 5)).statusCode).toBe(429);
    // The next /64 is someone else.
    expect((await signInFrom('2001:db8:7:9::1', 6)).statusCode).toBe(401);
  });

  it('is the IPv4 address an IPv4-mapped IPv6 address carries', async () => {
    for (let n = 1; n <= 4; n += 1) expect((await signInFrom('198.51.100.77', n)).statusCode).toBe(401);
    expect((await signInFrom('::ffff:198.51.100.77', 5)).statusCode).toBe(429);
  });
});
