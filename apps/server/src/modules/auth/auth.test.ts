import type { ErrorResponse, RefreshAccessTokenResponse, SignInResponse } from '@rayo/shared';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bearer,
  createTestApp,
  createTestOrganization,
  createTestUser,
  signIn,
  TEST_JWT_SECRET,
  TEST_PASSWORD,
  type TestApp,
} from '../../../test/test-app.ts';
import { createTestClock } from '../../../test/test-clock.ts';
import { DEMO_PASSWORD, demoUsers, seedDemo } from '../../db/seed-demo.ts';
import { listAuditEntries } from '../audit/audit.repo.ts';
import { pruneRefreshTokens } from './auth.service.ts';
import { hashRefreshToken } from './tokens.ts';

const admin = 'admin@rayo.local';

function postSignIn(t: TestApp, payload: unknown, remoteAddress?: string) {
  return t.app.inject({
    method: 'POST',
    url: '/api/auth/signin',
    payload: payload as Record<string, unknown>,
    ...(remoteAddress ? { remoteAddress } : {}),
  });
}

function claimsOf(accessToken: string): Record<string, unknown> {
  const [, payload] = accessToken.split('.');
  return JSON.parse(Buffer.from(payload ?? '', 'base64url').toString());
}

function listAccounts(t: TestApp, accessToken: string) {
  return t.app.inject({ method: 'GET', url: '/api/account/all', headers: bearer(accessToken) });
}

describe('auth', () => {
  let t: TestApp;

  beforeAll(async () => {
    // These tests sign in often; the limits have tests of their own below.
    t = await createTestApp({ SIGNIN_LIMIT_PER_EMAIL: '1000', SIGNIN_LIMIT_PER_IP: '1000' });
    await seedDemo(t.db, { days: 0 });
  });
  afterAll(() => t?.close());

  describe('POST /api/auth/signin', () => {
    it.each(demoUsers)('signs in the demo $role', async (user) => {
      const response = await postSignIn(t, { email: user.email, password: DEMO_PASSWORD });
      expect(response.statusCode).toBe(200);
      const body = response.json<SignInResponse>();
      expect(body).toEqual({
        accessToken: expect.any(String),
        refreshToken: expect.any(String),
        role: user.role,
        language: 'en',
      });
      expect(body.accessToken.split('.')).toHaveLength(3);
      expect(body.refreshToken.length).toBeGreaterThanOrEqual(43);
    });

    it('treats the email case-insensitively', async () => {
      const body = await signIn(t.app, 'ADMIN@Rayo.Local', DEMO_PASSWORD);
      expect(body.role).toBe('admin');
    });

    it('answers WrongAuth for a wrong password', async () => {
      const response = await postSignIn(t, { email: admin, password: 'Wrong-password-1' });
      expect(response.statusCode).toBe(401);
      expect(response.json<ErrorResponse>().code).toBe('WrongAuth');
    });

    it('answers WrongAuth, the same answer, for an unknown email', async () => {
      const response = await postSignIn(t, { email: 'nobody@rayo.local', password: DEMO_PASSWORD });
      expect(response.statusCode).toBe(401);
      expect(response.json<ErrorResponse>()).toEqual({ code: 'WrongAuth', message: 'Invalid email or password' });
    });

    it.each([
      ['a missing email', { password: DEMO_PASSWORD }, 'MissingEmail'],
      ['a blank email', { email: '   ', password: DEMO_PASSWORD }, 'MissingEmail'],
      ['an empty email', { email: '', password: DEMO_PASSWORD }, 'MissingEmail'],
      ['an invalid email', { email: 'not-an-email', password: DEMO_PASSWORD }, 'InvalidEmail'],
      ['a missing password', { email: admin }, 'MissingPassword'],
      ['an empty password', { email: admin, password: '' }, 'MissingPassword'],
      ['an empty body', {}, 'MissingEmail'],
    ])('answers 400 for %s', async (_case, payload, code) => {
      const response = await postSignIn(t, payload);
      expect(response.statusCode).toBe(400);
      expect(response.json<ErrorResponse>().code).toBe(code);
    });

    it.each([
      ['malformed JSON', '{"email": "admin@rayo.local", '],
      ['an empty body', ''],
      ['a JSON array', '[]'],
      ['a prototype-poisoning body', '{"email": "a@b.co", "password": "x", "__proto__": {"role": "admin"}}'],
    ])('answers 400 InvalidInput, never 500, for %s', async (_case, payload) => {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/auth/signin',
        headers: { 'content-type': 'application/json' },
        payload,
      });
      expect(response.statusCode).toBe(400);
      expect(response.json<ErrorResponse>().code).toBe('InvalidInput');
    });
  });

  describe('access tokens', () => {
    it('opens protected routes', async () => {
      const { accessToken } = await signIn(t.app, admin, DEMO_PASSWORD);
      expect((await listAccounts(t, accessToken)).statusCode).toBe(200);
    });

    it('refuses an expired token', async () => {
      const { accessToken } = await signIn(t.app, admin, DEMO_PASSWORD);
      const now = Math.floor(Date.now() / 1000);
      const expired = await new SignJWT(claimsOf(accessToken))
        .setProtectedHeader({ alg: 'HS256' })
        .setIssuedAt(now - 3600)
        .setExpirationTime(now - 60)
        .sign(new TextEncoder().encode(TEST_JWT_SECRET));
      const response = await listAccounts(t, expired);
      expect(response.statusCode).toBe(401);
      expect(response.json<ErrorResponse>().code).toBe('Unauthorized');
    });

    it('refuses a token signed with another secret', async () => {
      const { accessToken } = await signIn(t.app, admin, DEMO_PASSWORD);
      const forged = await new SignJWT(claimsOf(accessToken))
        .setProtectedHeader({ alg: 'HS256' })
        .sign(new TextEncoder().encode('another-secret-that-is-also-32-characters'));
      const response = await listAccounts(t, forged);
      expect(response.statusCode).toBe(401);
      expect(response.json<ErrorResponse>().code).toBe('Unauthorized');
    });

    it('refuses an unsigned token', async () => {
      const { accessToken } = await signIn(t.app, admin, DEMO_PASSWORD);
      const [, payload] = accessToken.split('.');
      const noneHeader = Buffer.from(JSON.stringify({ alg: 'none' })).toString('base64url');
      const response = await listAccounts(t, `${noneHeader}.${payload}.`);
      expect(response.statusCode).toBe(401);
    });

    it('refuses a garbage bearer value and a non-bearer scheme', async () => {
      expect((await listAccounts(t, 'garbage')).statusCode).toBe(401);
      const { accessToken } = await signIn(t.app, admin, DEMO_PASSWORD);
      const response = await t.app.inject({
        method: 'GET',
        url: '/api/account/all',
        headers: { authorization: `Token ${accessToken}` },
      });
      expect(response.statusCode).toBe(401);
    });
  });

  describe('refresh tokens', () => {
    it('gives a working access token for a live refresh token', async () => {
      const { refreshToken } = await signIn(t.app, admin, DEMO_PASSWORD);
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/auth/refresh-access-token',
        payload: { refreshToken },
      });
      expect(response.statusCode).toBe(200);
      const { accessToken } = response.json<{ accessToken: string }>();
      expect((await listAccounts(t, accessToken)).statusCode).toBe(200);
    });

    function refresh(refreshToken: string, remoteAddress?: string) {
      return t.app.inject({
        method: 'POST',
        url: '/api/auth/refresh-access-token',
        payload: { refreshToken },
        ...(remoteAddress ? { remoteAddress } : {}),
      });
    }

    async function expiryOf(refreshToken: string): Promise<Date> {
      const row = await t.db
        .selectFrom('refresh_tokens')
        .select('expires_at')
        .where('token_hash', '=', hashRefreshToken(refreshToken))
        .executeTakeFirstOrThrow();
      return row.expires_at;
    }

    async function signInRemembered(remember?: boolean): Promise<SignInResponse> {
      const response = await postSignIn(t, { email: admin, password: DEMO_PASSWORD, remember });
      expect(response.statusCode, response.body).toBe(200);
      return response.json<SignInResponse>();
    }

    it('replaces the refresh token on each use, keeping the expiry of the sign-in', async () => {
      const session = await signInRemembered(true);
      const first = await refresh(session.refreshToken);
      expect(first.statusCode, first.body).toBe(200);
      const rotated = first.json<Required<RefreshAccessTokenResponse>>();
      expect(rotated.refreshToken).not.toBe(session.refreshToken);
      expect(await expiryOf(rotated.refreshToken)).toEqual(await expiryOf(session.refreshToken));
      expect((await listAccounts(t, rotated.accessToken)).statusCode).toBe(200);
      expect((await refresh(rotated.refreshToken)).statusCode).toBe(200);
    });

    it('revokes the whole family when a replaced token comes back, and logs it', async () => {
      const session = await signInRemembered(true);
      const other = await signInRemembered(true);
      const rotated = (await refresh(session.refreshToken)).json<Required<RefreshAccessTokenResponse>>();

      const reused = await refresh(session.refreshToken, '198.51.100.99');
      expect(reused.statusCode).toBe(401);
      expect(reused.json<ErrorResponse>().code).toBe('Unauthorized');
      // The newer token of the family, held by whoever refreshed first, stops working too.
      expect((await refresh(rotated.refreshToken)).statusCode).toBe(401);
      // Another sign-in of the same user is another family.
      expect((await refresh(other.refreshToken)).statusCode).toBe(200);

      const reuses = (await listAuditEntries(t.db)).filter((entry) => entry.action === 'auth.refresh_token_reused');
      expect(reuses).toEqual([expect.objectContaining({ actor_email: admin, ip: '198.51.100.99' })]);
    });

    it('gives a session without "remember me" a refresh token of hours, and one with it 30 days', async () => {
      const hour = 60 * 60 * 1000;
      const before = Date.now();
      for (const remember of [false, undefined]) {
        const { refreshToken } = await signInRemembered(remember);
        expect((await expiryOf(refreshToken)).getTime()).toBeLessThanOrEqual(Date.now() + 12 * hour);
        expect((await expiryOf(refreshToken)).getTime()).toBeGreaterThanOrEqual(before + 12 * hour - 1000);
      }
      const { refreshToken } = await signInRemembered(true);
      const expiry = (await expiryOf(refreshToken)).getTime();
      expect(expiry).toBeGreaterThanOrEqual(before + 30 * 24 * hour - 1000);
      expect(expiry).toBeLessThanOrEqual(Date.now() + 30 * 24 * hour);
    });

    it('prunes expired refresh tokens and keeps live ones', async () => {
      const expired = await signInRemembered(true);
      const live = await signInRemembered(true);
      await t.db
        .updateTable('refresh_tokens')
        .set({ expires_at: new Date(Date.now() - 1000) })
        .where('token_hash', '=', hashRefreshToken(expired.refreshToken))
        .execute();
      await pruneRefreshTokens(t.db);
      const left = await t.db
        .selectFrom('refresh_tokens')
        .select('token_hash')
        .where('token_hash', 'in', [hashRefreshToken(expired.refreshToken), hashRefreshToken(live.refreshToken)])
        .execute();
      expect(left).toEqual([{ token_hash: hashRefreshToken(live.refreshToken) }]);
    });

    it('refuses a refresh token revoked by logout', async () => {
      const { refreshToken } = await signIn(t.app, admin, DEMO_PASSWORD);
      const logout = await t.app.inject({ method: 'POST', url: '/api/auth/logout', payload: { refreshToken } });
      expect(logout.statusCode).toBe(204);
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/auth/refresh-access-token',
        payload: { refreshToken },
      });
      expect(response.statusCode).toBe(401);
      expect(response.json<ErrorResponse>().code).toBe('Unauthorized');
    });

    it('revokes only the refresh token it is given', async () => {
      const first = await signIn(t.app, admin, DEMO_PASSWORD);
      const second = await signIn(t.app, admin, DEMO_PASSWORD);
      await t.app.inject({ method: 'POST', url: '/api/auth/logout', payload: { refreshToken: first.refreshToken } });
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/auth/refresh-access-token',
        payload: { refreshToken: second.refreshToken },
      });
      expect(response.statusCode).toBe(200);
    });

    it('refuses an unknown refresh token', async () => {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/auth/refresh-access-token',
        payload: { refreshToken: 'not-a-token-we-issued' },
      });
      expect(response.statusCode).toBe(401);
      expect(response.json<ErrorResponse>().code).toBe('Unauthorized');
    });

    it('answers MissingRefreshToken when none is sent', async () => {
      const response = await t.app.inject({ method: 'POST', url: '/api/auth/refresh-access-token', payload: {} });
      expect(response.statusCode).toBe(400);
      expect(response.json<ErrorResponse>().code).toBe('MissingRefreshToken');
    });

    it('accepts a logout without a body, with or without a JSON content type', async () => {
      expect((await t.app.inject({ method: 'POST', url: '/api/auth/logout' })).statusCode).toBe(204);
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/auth/logout',
        headers: { 'content-type': 'application/json' },
      });
      expect(response.statusCode).toBe(204);
    });
  });
});

describe('auth with a short access-token lifetime', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ ACCESS_TOKEN_TTL_SECONDS: '10' });
    await seedDemo(t.db, { days: 0 });
  });
  afterAll(() => t?.close());

  it('stamps the configured lifetime on access tokens', async () => {
    const { accessToken } = await signIn(t.app, admin, DEMO_PASSWORD);
    const claims = claimsOf(accessToken);
    expect(Number(claims.exp) - Number(claims.iat)).toBe(10);
  });
});

describe('refresh rate limit', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ REFRESH_LIMIT_PER_IP: '3' }, { clock: createTestClock() });
  });
  afterAll(() => t?.close());

  it('answers 429 once an address passes its refreshes per minute, while other addresses still refresh', async () => {
    const refresh = (remoteAddress: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/auth/refresh-access-token',
        payload: { refreshToken: 'not-a-token-we-issued' },
        remoteAddress,
      });
    for (let attempt = 1; attempt <= 3; attempt++) {
      expect((await refresh('198.51.100.70')).statusCode, `attempt ${attempt}`).toBe(401);
    }
    const blocked = await refresh('198.51.100.70');
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json<ErrorResponse>().code).toBe('TooManyRequests');
    expect(Number(blocked.headers['retry-after'])).toBeLessThanOrEqual(60);
    expect((await refresh('198.51.100.71')).statusCode).toBe(401);
  });
});

describe('sign-in rate limits', () => {
  let t: TestApp;
  let organizationId: string;

  beforeAll(async () => {
    t = await createTestApp({
      SIGNIN_LIMIT_PER_EMAIL: '3',
      SIGNIN_LIMIT_PER_IP: '5',
      SIGNIN_LIMIT_PER_EMAIL_GLOBAL: '5',
    });
    await seedDemo(t.db, { days: 0 });
    organizationId = (await createTestOrganization(t.db)).id;
  });
  afterAll(() => t?.close());

  async function fail(email: string, remoteAddress: string) {
    const response = await postSignIn(t, { email, password: 'Wrong-password-1' }, remoteAddress);
    expect(response.statusCode, response.body).toBe(401);
  }

  it('answers 429 with Retry-After once an email fails too often at an address, and only there', async () => {
    for (let attempt = 1; attempt <= 3; attempt++) await fail(admin, '198.51.100.1');
    const blocked = await postSignIn(t, { email: 'Admin@rayo.local', password: DEMO_PASSWORD }, '198.51.100.1');
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json<ErrorResponse>().code).toBe('TooManyRequests');
    const retryAfter = Number(blocked.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(t.config.signInLimitWindowSeconds);

    // The user, elsewhere, is not locked out by someone guessing from that address.
    const elsewhere = await postSignIn(t, { email: admin, password: DEMO_PASSWORD }, '198.51.100.2');
    expect(elsewhere.statusCode).toBe(200);
    const other = await postSignIn(t, { email: 'manager@rayo.local', password: DEMO_PASSWORD }, '198.51.100.1');
    expect(other.statusCode).toBe(200);
  });

  it('does not count successful sign-ins', async () => {
    const user = await createTestUser(t.db, { role: 'admin', organizationId });
    for (let attempt = 1; attempt <= 8; attempt++) {
      const response = await postSignIn(t, { email: user.email, password: TEST_PASSWORD }, '198.51.100.20');
      expect(response.statusCode, `attempt ${attempt}`).toBe(200);
    }
    // Failures still count in full after them.
    for (let attempt = 1; attempt <= 3; attempt++) await fail(user.email, '198.51.100.20');
    const blocked = await postSignIn(t, { email: user.email, password: TEST_PASSWORD }, '198.51.100.20');
    expect(blocked.statusCode).toBe(429);
  });

  it('limits failures of one email from every address together', async () => {
    const user = await createTestUser(t.db, { role: 'admin', organizationId });
    for (const address of ['198.51.100.30', '198.51.100.30', '198.51.100.31', '198.51.100.31', '198.51.100.32']) {
      await fail(user.email, address);
    }
    const blocked = await postSignIn(t, { email: user.email, password: TEST_PASSWORD }, '198.51.100.33');
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json<ErrorResponse>().code).toBe('TooManyRequests');
    expect(Number(blocked.headers['retry-after'])).toBeLessThanOrEqual(60 * 60);
  });

  it('answers 429 once an address passes its limit, whatever the email', async () => {
    const address = '203.0.113.7';
    const emails = demoUsers.map((user) => user.email);
    for (let attempt = 0; attempt < 5; attempt++) {
      const email = `someone-${attempt}@rayo.local`;
      const response = await postSignIn(t, { email, password: DEMO_PASSWORD }, address);
      expect(response.statusCode, `attempt ${attempt + 1}`).toBe(401);
    }
    const blocked = await postSignIn(t, { email: emails[3], password: DEMO_PASSWORD }, address);
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json<ErrorResponse>().code).toBe('TooManyRequests');
    expect(blocked.headers['retry-after']).toBeDefined();

    const elsewhere = await postSignIn(t, { email: emails[3], password: DEMO_PASSWORD }, '203.0.113.8');
    expect(elsewhere.statusCode).toBe(200);
  });
});
