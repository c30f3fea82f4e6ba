import type { ErrorResponse } from '@rayo/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestApp,
  createTestOrganization,
  createTestUser,
  TEST_PASSWORD,
  type TestApp,
} from '../../../test/test-app.ts';

/**
 * Strangers guessing a password from many addresses use up the email's limit; the owner's own
 * browser, which signed in before, still gets in, and the strangers stay locked out.
 */

const GLOBAL_LIMIT = 4;
let t: TestApp;
let organizationId: string;

beforeAll(async () => {
  // Two failures per email at one address, four per email from all of them: the defaults (10
  // and 100) scaled down, so that few password checks fill them.
  t = await createTestApp({ SIGNIN_LIMIT_PER_EMAIL: '2', SIGNIN_LIMIT_PER_EMAIL_GLOBAL: String(GLOBAL_LIMIT) });
  organizationId = (await createTestOrganization(t.db)).id;
});
afterAll(() => t?.close());

function signIn(email: string, password: string, remoteAddress: string, cookie?: string) {
  return t.app.inject({
    method: 'POST',
    url: '/api/auth/signin',
    payload: { email, password },
    remoteAddress,
    headers: cookie ? { cookie } : {},
  });
}

/** The cookie a sign-in answer sets, as a browser would send it back. */
function deviceCookie(answer: Awaited<ReturnType<typeof signIn>>): string {
  const header = answer.headers['set-cookie'];
  const value = (Array.isArray(header) ? header[0] : header) ?? '';
  expect(value).toMatch(/^rayo_device=[\w.-]+; Max-Age=31536000; Path=\/api\/auth; HttpOnly; SameSite=Strict$/);
  return value.split(';')[0] as string;
}

/** Three addresses, each guessing past its own limit: their failures fill the email's. */
async function strangersGuess(email: string) {
  for (let address = 1; address <= 3; address += 1) {
    for (let guess = 1; guess <= 3; guess += 1) {
      const answer = await signIn(email, `Wrong-password-${guess}`, `198.51.100.${address}`);
      expect([401, 429]).toContain(answer.statusCode);
    }
  }
}

describe('a browser that signed in before', { timeout: 120_000 }, () => {
  it('lets its owner in while strangers from many addresses have locked the email', async () => {
    const owner = await createTestUser(t.db, { role: 'admin', organizationId });
    const first = await signIn(owner.email, TEST_PASSWORD, '203.0.113.5');
    expect(first.statusCode).toBe(200);
    const cookie = deviceCookie(first);

    await strangersGuess(owner.email);
    // A stranger with the right password, from a fresh address, is still refused.
    const stranger = await signIn(owner.email, TEST_PASSWORD, '192.0.2.77');
    expect(stranger.statusCode).toBe(429);
    expect(stranger.json<ErrorResponse>().code).toBe('TooManyRequests');
    // The owner's browser is not, from the same address or a new one.
    expect((await signIn(owner.email, TEST_PASSWORD, '203.0.113.5', cookie)).statusCode).toBe(200);
    expect((await signIn(owner.email, TEST_PASSWORD, '192.0.2.78', cookie)).statusCode).toBe(200);
  });

  it("opens only the accounts it signed in to, and a forged or another server's cookie opens none", async () => {
    const owner = await createTestUser(t.db, { role: 'admin', organizationId });
    const colleague = await createTestUser(t.db, { role: 'manager', organizationId });
    const cookie = deviceCookie(await signIn(colleague.email, TEST_PASSWORD, '203.0.113.6'));
    await strangersGuess(owner.email);
    expect((await signIn(owner.email, TEST_PASSWORD, '203.0.113.6', cookie)).statusCode).toBe(429);
    const [name, token = ''] = cookie.split('=');
    const [header, payload, signature = ''] = token.split('.');
    const forged = `${name}=${header}.${payload}.${signature.slice(0, -2)}${signature.endsWith('A') ? 'BB' : 'AA'}`;
    expect((await signIn(owner.email, TEST_PASSWORD, '203.0.113.6', forged)).statusCode).toBe(429);
  });

  it('remembers several accounts, and signing in again keeps the device', async () => {
    const first = await createTestUser(t.db, { role: 'admin', organizationId });
    const second = await createTestUser(t.db, { role: 'manager', organizationId });
    const cookie = deviceCookie(await signIn(first.email, TEST_PASSWORD, '203.0.113.7'));
    const both = deviceCookie(await signIn(second.email, TEST_PASSWORD, '203.0.113.7', cookie));
    await strangersGuess(first.email);
    await strangersGuess(second.email);
    expect((await signIn(first.email, TEST_PASSWORD, '203.0.113.7', both)).statusCode).toBe(200);
    expect((await signIn(second.email, TEST_PASSWORD, '203.0.113.7', both)).statusCode).toBe(200);
  });

  it('still limits guesses made from it, on a budget of its own', async () => {
    const owner = await createTestUser(t.db, { role: 'admin', organizationId });
    const cookie = deviceCookie(await signIn(owner.email, TEST_PASSWORD, '203.0.113.8'));
    for (let guess = 1; guess <= 2; guess += 1) {
      expect((await signIn(owner.email, `Wrong-password-${guess}`, '203.0.113.8', cookie)).statusCode).toBe(401);
    }
    expect((await signIn(owner.email, TEST_PASSWORD, '203.0.113.8', cookie)).statusCode).toBe(429);
    // Its guesses did not count against the strangers' budgets of that address.
    expect((await signIn(owner.email, TEST_PASSWORD, '203.0.113.8')).statusCode).toBe(200);
  });
});
