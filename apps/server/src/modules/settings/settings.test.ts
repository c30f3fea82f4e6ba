import type { ErrorResponse, Role } from '@rayo/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bearer,
  createTestApp,
  createTestOrganization,
  createTestUser,
  signIn,
  TEST_PASSWORD,
  type TestApp,
} from '../../../test/test-app.ts';
import { listAuditEntries } from '../audit/audit.repo.ts';

const NEW_PASSWORD = 'New-password-2';

describe('POST /api/settings/password', () => {
  let t: TestApp;
  let organizationId: string;

  beforeAll(async () => {
    // Tests sign in often; the sign-in limits have tests of their own.
    t = await createTestApp({ SIGNIN_LIMIT_PER_EMAIL: '1000', SIGNIN_LIMIT_PER_IP: '1000' });
    organizationId = (await createTestOrganization(t.db)).id;
  });
  afterAll(() => t?.close());

  function newUser(role: Role = 'admin') {
    return createTestUser(t.db, { role, organizationId: role === 'back_office' ? null : organizationId });
  }

  function changePassword(accessToken: string | null, payload: Record<string, unknown>) {
    return t.app.inject({
      method: 'POST',
      url: '/api/settings/password',
      headers: accessToken ? bearer(accessToken) : {},
      payload,
    });
  }

  function postSignIn(email: string, password: string) {
    return t.app.inject({ method: 'POST', url: '/api/auth/signin', payload: { email, password } });
  }

  function refresh(refreshToken: string) {
    return t.app.inject({ method: 'POST', url: '/api/auth/refresh-access-token', payload: { refreshToken } });
  }

  it.each<Role>(['super_admin', 'admin', 'manager', 'back_office'])(
    'lets a %s change their own password: the new one signs in, the old one no longer',
    async (role) => {
      const user = await newUser(role);
      const session = await signIn(t.app, user.email, TEST_PASSWORD);

      const response = await changePassword(session.accessToken, {
        currentPassword: TEST_PASSWORD,
        newPassword: NEW_PASSWORD,
      });
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json()).toEqual({ accessToken: expect.any(String) });

      expect((await postSignIn(user.email, NEW_PASSWORD)).statusCode).toBe(200);
      const old = await postSignIn(user.email, TEST_PASSWORD);
      expect(old.statusCode).toBe(401);
      expect(old.json<ErrorResponse>().code).toBe('WrongAuth');
    },
  );

  it('keeps the refresh token the caller sends and ends every other session, access tokens at once', async () => {
    const user = await newUser();
    const here = await signIn(t.app, user.email, TEST_PASSWORD);
    const elsewhere = await signIn(t.app, user.email, TEST_PASSWORD);
    const otherUser = await newUser();
    const otherUserSession = await signIn(t.app, otherUser.email, TEST_PASSWORD);

    const response = await changePassword(here.accessToken, {
      currentPassword: TEST_PASSWORD,
      newPassword: NEW_PASSWORD,
      refreshToken: here.refreshToken,
    });
    expect(response.statusCode, response.body).toBe(200);

    expect((await refresh(here.refreshToken)).statusCode).toBe(200);
    const revoked = await refresh(elsewhere.refreshToken);
    expect(revoked.statusCode).toBe(401);
    expect(revoked.json<ErrorResponse>().code).toBe('Unauthorized');
    expect((await refresh(otherUserSession.refreshToken)).statusCode).toBe(200);

    const accounts = (accessToken: string) =>
      t.app.inject({ method: 'GET', url: '/api/account/all', headers: bearer(accessToken) });
    // The other device is signed out now, not when its access token lapses; so is every access
    // token signed before the change, the caller's too, who goes on with the one answered.
    expect((await accounts(elsewhere.accessToken)).statusCode).toBe(401);
    expect((await accounts(here.accessToken)).statusCode).toBe(401);
    expect((await accounts(response.json<{ accessToken: string }>().accessToken)).statusCode).toBe(200);
    expect((await accounts(otherUserSession.accessToken)).statusCode).toBe(200);
  });

  it('revokes every refresh token of the user when the caller sends none', async () => {
    const user = await newUser();
    const session = await signIn(t.app, user.email, TEST_PASSWORD);
    const response = await changePassword(session.accessToken, {
      currentPassword: TEST_PASSWORD,
      newPassword: NEW_PASSWORD,
    });
    expect(response.statusCode, response.body).toBe(200);
    expect((await refresh(session.refreshToken)).statusCode).toBe(401);
  });

  it('writes one audit row for the change, with the caller and their address and no password', async () => {
    const user = await newUser();
    const session = await signIn(t.app, user.email, TEST_PASSWORD);
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/settings/password',
      headers: bearer(session.accessToken),
      payload: { currentPassword: TEST_PASSWORD, newPassword: NEW_PASSWORD },
      remoteAddress: '198.51.100.20',
    });
    expect(response.statusCode, response.body).toBe(200);

    const rows = await listAuditEntries(t.db, { actorUserId: user.id });
    expect(rows.filter((row) => row.action === 'settings.password_changed')).toEqual([
      expect.objectContaining({
        actor_email: user.email,
        organization_id: organizationId,
        target: `user:${user.id}`,
        ip: '198.51.100.20',
        before: null,
        after: { developerTokensRevoked: 0 },
      }),
    ]);
  });

  it('refuses a wrong current password with WrongCurrentPassword (400, not a session failure) and changes nothing', async () => {
    const user = await newUser();
    const session = await signIn(t.app, user.email, TEST_PASSWORD);
    const response = await changePassword(session.accessToken, {
      currentPassword: 'Wrong-password-1',
      newPassword: NEW_PASSWORD,
    });
    expect(response.statusCode).toBe(400);
    expect(response.json<ErrorResponse>()).toEqual({
      code: 'WrongCurrentPassword',
      message: 'The current password is not correct',
    });
    expect((await postSignIn(user.email, TEST_PASSWORD)).statusCode).toBe(200);
    expect((await refresh(session.refreshToken)).statusCode).toBe(200);
    const audited = await listAuditEntries(t.db, { actorUserId: user.id });
    expect(audited.filter((row) => row.action === 'settings.password_changed')).toEqual([]);
  });

  it.each([
    [
      'a new password without a number',
      { currentPassword: TEST_PASSWORD, newPassword: 'No-numbers-here' },
      'InvalidPassword',
    ],
    ['a short new password', { currentPassword: TEST_PASSWORD, newPassword: 'Sh-1' }, 'InvalidPassword'],
    ['no new password', { currentPassword: TEST_PASSWORD }, 'MissingPassword'],
    ['a blank new password', { currentPassword: TEST_PASSWORD, newPassword: '' }, 'MissingPassword'],
    ['no current password', { newPassword: NEW_PASSWORD }, 'MissingPassword'],
    ['a blank current password', { currentPassword: '', newPassword: NEW_PASSWORD }, 'MissingPassword'],
  ])('answers 400 for %s', async (_case, payload, code) => {
    const user = await newUser();
    const session = await signIn(t.app, user.email, TEST_PASSWORD);
    const response = await changePassword(session.accessToken, payload);
    expect(response.statusCode).toBe(400);
    expect(response.json<ErrorResponse>().code).toBe(code);
    expect((await postSignIn(user.email, TEST_PASSWORD)).statusCode).toBe(200);
  });

  it('answers 401 without an access token', async () => {
    const response = await changePassword(null, { currentPassword: TEST_PASSWORD, newPassword: NEW_PASSWORD });
    expect(response.statusCode).toBe(401);
    expect(response.json<ErrorResponse>().code).toBe('Unauthorized');
  });

  it('limits attempts per user, so an access token cannot be used to guess the password', async () => {
    const user = await newUser();
    const session = await signIn(t.app, user.email, TEST_PASSWORD);
    const wrong = { currentPassword: 'Wrong-password-1', newPassword: NEW_PASSWORD };
    for (let attempt = 1; attempt <= 10; attempt++) {
      expect((await changePassword(session.accessToken, wrong)).statusCode).toBe(400);
    }
    const limited = await changePassword(session.accessToken, {
      currentPassword: TEST_PASSWORD,
      newPassword: NEW_PASSWORD,
    });
    expect(limited.statusCode).toBe(429);
    expect(limited.json<ErrorResponse>().code).toBe('TooManyRequests');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect((await postSignIn(user.email, TEST_PASSWORD)).statusCode).toBe(200);

    // The limit is the user's own: another user of the same organization is not held back.
    const other = await newUser();
    const otherSession = await signIn(t.app, other.email, TEST_PASSWORD);
    const response = await changePassword(otherSession.accessToken, {
      currentPassword: TEST_PASSWORD,
      newPassword: NEW_PASSWORD,
    });
    expect(response.statusCode).toBe(200);
  });
});
