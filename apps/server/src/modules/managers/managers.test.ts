import type { AccountSummary, Bpt, ErrorResponse, Manager, MfaEnrollment } from '@rayo/shared';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bearer,
  createTestAccount,
  createTestApp,
  createTestOrganization,
  createTestUser,
  signIn,
  type TestApp,
} from '../../../test/test-app.ts';
import { listAuditEntries } from '../audit/audit.repo.ts';

const PASSWORD = 'Manager-pass-1';

describe('managers: created, linked, edited and removed by admins', () => {
  let t: TestApp;
  let admin: { authorization: string };
  let otherAdmin: { authorization: string };
  let manager: { authorization: string };
  let backOffice: { authorization: string };
  let bar: string;
  let patio: string;
  let foreignAccount: string;
  let organizationId: string;
  let sequence = 0;

  beforeAll(async () => {
    t = await createTestApp();
    const organization = await createTestOrganization(t.db);
    organizationId = organization.id;
    const other = await createTestOrganization(t.db);
    bar = (await createTestAccount(t.db, organization.id, 'Bar')).id;
    patio = (await createTestAccount(t.db, organization.id, 'Patio')).id;
    foreignAccount = (await createTestAccount(t.db, other.id, 'Theirs')).id;
    const users = {
      admin: await createTestUser(t.db, { role: 'admin', organizationId: organization.id }),
      otherAdmin: await createTestUser(t.db, { role: 'admin', organizationId: other.id }),
      manager: await createTestUser(t.db, { role: 'manager', organizationId: organization.id }),
      backOffice: await createTestUser(t.db, { role: 'back_office', organizationId: null }),
    };
    const tokenOf = async (user: { email: string; password: string }) =>
      bearer((await signIn(t.app, user.email, user.password)).accessToken);
    admin = await tokenOf(users.admin);
    otherAdmin = await tokenOf(users.otherAdmin);
    manager = await tokenOf(users.manager);
    backOffice = await tokenOf(users.backOffice);
  });
  afterAll(() => t.close());

  function uniqueEmail(): string {
    sequence += 1;
    return `new-manager-${sequence}@example.com`;
  }

  async function create(payload: object, headers: Record<string, string> = admin) {
    return t.app.inject({ method: 'POST', url: '/api/managers', headers, payload });
  }

  async function list(headers = admin): Promise<Manager[]> {
    const response = await t.app.inject({ method: 'GET', url: '/api/managers', headers });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<Manager[]>();
  }

  it('creates a manager linked to accounts, who signs in and sees only those accounts', async () => {
    const email = uniqueEmail();
    const response = await create({ name: '  Ana  ', email, password: PASSWORD, accountIds: [bar] });
    expect(response.statusCode, response.body).toBe(201);
    const created = response.json<Manager>();
    expect(created).toEqual({ id: created.id, name: 'Ana', email, language: 'en', accountIds: [bar] });
    expect(await list()).toContainEqual(created);

    const session = await signIn(t.app, email, PASSWORD);
    expect(session.role).toBe('manager');
    const accounts = await t.app.inject({
      method: 'GET',
      url: '/api/account/all',
      headers: bearer(session.accessToken),
    });
    expect(accounts.json<AccountSummary[]>()).toEqual([{ id: bar, name: 'Bar' }]);
  });

  it('lists only managers, never admins', async () => {
    expect((await list()).every((entry) => !entry.email.startsWith('admin-'))).toBe(true);
  });

  it('renames, relinks and sets a new password', async () => {
    const email = uniqueEmail();
    const created = (await create({ name: 'Old', email, password: PASSWORD, accountIds: [bar] })).json<Manager>();
    const oldSession = await signIn(t.app, email, PASSWORD);
    const response = await t.app.inject({
      method: 'PATCH',
      url: `/api/managers/${created.id}`,
      headers: admin,
      payload: { name: 'New', accountIds: [patio, patio], password: 'Another-pass-2' },
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json<Manager>()).toEqual({
      id: created.id,
      name: 'New',
      email,
      language: 'en',
      accountIds: [patio],
    });

    const wrong = await t.app.inject({
      method: 'POST',
      url: '/api/auth/signin',
      payload: { email, password: PASSWORD },
    });
    expect(wrong.statusCode).toBe(401);
    await signIn(t.app, email, 'Another-pass-2');
    // The session signed in with the old password cannot be refreshed any more.
    const refresh = await t.app.inject({
      method: 'POST',
      url: '/api/auth/refresh-access-token',
      payload: { refreshToken: oldSession.refreshToken },
    });
    expect(refresh.statusCode).toBe(401);
  });

  it('unlinks every account with an empty list', async () => {
    const created = (
      await create({ name: 'Linked', email: uniqueEmail(), password: PASSWORD, accountIds: [bar, patio] })
    ).json<Manager>();
    const response = await t.app.inject({
      method: 'PATCH',
      url: `/api/managers/${created.id}`,
      headers: admin,
      payload: { accountIds: [] },
    });
    expect(response.json<Manager>().accountIds).toEqual([]);
  });

  it('deletes the manager, whose access and refresh tokens stop working at once', async () => {
    const email = uniqueEmail();
    const created = (await create({ name: 'Gone', email, password: PASSWORD, accountIds: [bar] })).json<Manager>();
    const session = await signIn(t.app, email, PASSWORD);
    const before = await t.app.inject({ method: 'GET', url: '/api/bpts', headers: bearer(session.accessToken) });
    expect(before.statusCode).toBe(200);
    const response = await t.app.inject({ method: 'DELETE', url: `/api/managers/${created.id}`, headers: admin });
    expect(response.statusCode).toBe(204);
    // The access token has not expired, but its user is gone.
    for (const url of ['/api/bpts', '/api/organization/current', '/api/currencies']) {
      const after = await t.app.inject({ method: 'GET', url, headers: bearer(session.accessToken) });
      expect(after.statusCode, url).toBe(401);
    }
    expect((await list()).map((entry) => entry.id)).not.toContain(created.id);
    const refresh = await t.app.inject({
      method: 'POST',
      url: '/api/auth/refresh-access-token',
      payload: { refreshToken: session.refreshToken },
    });
    expect(refresh.statusCode).toBe(401);
    const again = await t.app.inject({ method: 'DELETE', url: `/api/managers/${created.id}`, headers: admin });
    expect(again.statusCode).toBe(404);
  });

  it('never hands a manager a share link, and refuses them a charge (SPEC §6: managers only read)', async () => {
    const payload = { name: 'Shared till', accountId: bar, currency: 'SAT', shareable: true };
    const created = await t.app.inject({ method: 'POST', url: '/api/bpts', headers: admin, payload });
    expect(created.statusCode, created.body).toBe(201);
    const bpt = created.json<Bpt>();
    expect(bpt.shareToken).toEqual(expect.any(String));
    const email = uniqueEmail();
    await create({ name: 'Reader', email, password: PASSWORD, accountIds: [bar] });
    const reader = bearer((await signIn(t.app, email, PASSWORD)).accessToken);

    const listed = await t.app.inject({ method: 'GET', url: '/api/bpts', headers: reader });
    expect(listed.statusCode).toBe(200);
    expect(listed.json<Bpt[]>().find((entry) => entry.id === bpt.id)).toMatchObject({
      shareable: true,
      shareToken: null,
    });
    expect(listed.body).not.toContain(bpt.shareToken);
    const terminal = await t.app.inject({ method: 'GET', url: `/api/bpts/${bpt.id}/terminal`, headers: reader });
    expect(terminal.statusCode).toBe(200);
    expect(terminal.body).not.toContain(bpt.shareToken);

    const charge = { method: 'POST', url: `/api/bpts/${bpt.id}/invoices`, payload: { amount: '100' } } as const;
    const refused = await t.app.inject({ ...charge, headers: reader });
    expect(refused.statusCode).toBe(403);
    expect(refused.json<ErrorResponse>().code).toBe('Forbidden');
    expect((await t.app.inject({ ...charge, headers: admin })).statusCode).toBe(201);
  });

  it('refuses a weak password with InvalidPassword', async () => {
    for (const password of ['short1!', 'alllowercase1!', 'NoDigits!!', 'NoSpecial123']) {
      const response = await create({ name: 'Weak', email: uniqueEmail(), password, accountIds: [] });
      expect(response.statusCode, password).toBe(400);
      expect(response.json<ErrorResponse>().code).toBe('InvalidPassword');
    }
    const created = (
      await create({ name: 'W', email: uniqueEmail(), password: PASSWORD, accountIds: [] })
    ).json<Manager>();
    const patch = await t.app.inject({
      method: 'PATCH',
      url: `/api/managers/${created.id}`,
      headers: admin,
      payload: { password: 'weak' },
    });
    expect(patch.statusCode).toBe(400);
    expect(patch.json<ErrorResponse>().code).toBe('InvalidPassword');
  });

  it('refuses an email already used, in any case, with UserAlreadyExist', async () => {
    const email = uniqueEmail();
    expect((await create({ name: 'First', email, password: PASSWORD, accountIds: [] })).statusCode).toBe(201);
    const response = await create({ name: 'Second', email: email.toUpperCase(), password: PASSWORD, accountIds: [] });
    expect(response.statusCode).toBe(409);
    expect(response.json<ErrorResponse>().code).toBe('UserAlreadyExist');
  });

  it("refuses another organization's account with InvalidInput, creating nobody", async () => {
    const email = uniqueEmail();
    const response = await create({ name: 'Sneaky', email, password: PASSWORD, accountIds: [bar, foreignAccount] });
    expect(response.statusCode).toBe(400);
    expect(response.json<ErrorResponse>().code).toBe('InvalidInput');
    expect((await list()).map((entry) => entry.email)).not.toContain(email);
  });

  it("never shows or touches another organization's managers", async () => {
    const created = (
      await create({ name: 'Mine', email: uniqueEmail(), password: PASSWORD, accountIds: [bar] })
    ).json<Manager>();
    expect((await list(otherAdmin)).map((entry) => entry.id)).not.toContain(created.id);
    const patch = await t.app.inject({
      method: 'PATCH',
      url: `/api/managers/${created.id}`,
      headers: otherAdmin,
      payload: { name: 'Theirs' },
    });
    expect(patch.statusCode).toBe(404);
    const remove = await t.app.inject({ method: 'DELETE', url: `/api/managers/${created.id}`, headers: otherAdmin });
    expect(remove.statusCode).toBe(404);
    expect((await list()).find((entry) => entry.id === created.id)?.name).toBe('Mine');
  });

  it.each([
    ['a manager', () => manager],
    ['back office', () => backOffice],
  ])('answers 403 to %s on every managers route', async (_who, headers) => {
    const id = '00000000-0000-4000-8000-000000000000';
    const calls = [
      { method: 'GET', url: '/api/managers' },
      {
        method: 'POST',
        url: '/api/managers',
        payload: { name: 'X', email: uniqueEmail(), password: PASSWORD, accountIds: [] },
      },
      { method: 'PATCH', url: `/api/managers/${id}`, payload: { name: 'X' } },
      { method: 'DELETE', url: `/api/managers/${id}` },
    ] as const;
    for (const call of calls) {
      const response = await t.app.inject({ ...call, headers: headers() });
      expect(response.statusCode, `${call.method} ${call.url}`).toBe(403);
      expect(response.json<ErrorResponse>().code).toBe('Forbidden');
    }
  });

  it('limits each admin to 30 new managers and manager passwords an hour, each a scrypt hash', async () => {
    const user = await createTestUser(t.db, { role: 'admin', organizationId });
    const busy = bearer((await signIn(t.app, user.email, user.password)).accessToken);
    const target = (
      await create({ name: 'Target', email: uniqueEmail(), password: PASSWORD, accountIds: [bar] })
    ).json<Manager>().id;
    // Attempts count before any work, so even those that fail use the budget.
    for (let n = 0; n < 30; n++) {
      const payload = { password: PASSWORD };
      const missing = await t.app.inject({
        method: 'PATCH',
        url: `/api/managers/${crypto.randomUUID()}`,
        headers: busy,
        payload,
      });
      expect(missing.statusCode).toBe(404);
    }
    const created = await create({ name: 'Late', email: uniqueEmail(), password: PASSWORD, accountIds: [bar] }, busy);
    expect(created.statusCode).toBe(429);
    expect(created.json<ErrorResponse>().code).toBe('TooManyRequests');
    expect(Number(created.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(created.headers['retry-after'])).toBeLessThanOrEqual(3600);
    const update = (payload: object) =>
      t.app.inject({ method: 'PATCH', url: `/api/managers/${target}`, headers: busy, payload });
    expect((await update({ password: PASSWORD })).statusCode).toBe(429);
    // A change without a password hashes nothing and is not limited; nor is another admin.
    expect((await update({ name: 'Renamed' })).statusCode).toBe(200);
    expect(
      (await create({ name: 'Other', email: uniqueEmail(), password: PASSWORD, accountIds: [bar] })).statusCode,
    ).toBe(201);
  });

  it("needs the admin's MFA code to create a manager or set a password, not to rename one", async () => {
    const owner = await createTestUser(t.db, { role: 'admin', organizationId });
    const headers = bearer((await signIn(t.app, owner.email, owner.password)).accessToken);
    const enable = await t.app.inject({ method: 'POST', url: '/api/settings/mfa/enable', headers });
    const totp = new TOTP({ secret: Secret.fromBase32(enable.json<MfaEnrollment>().secret) });
    const validate = await t.app.inject({
      method: 'POST',
      url: '/api/settings/mfa/validate',
      headers,
      payload: { code: totp.generate() },
    });
    expect(validate.statusCode, validate.body).toBe(204);

    const payload = { name: 'Eva', email: uniqueEmail(), password: PASSWORD, accountIds: [bar] };
    const without = await create(payload, headers);
    expect([without.statusCode, without.json<ErrorResponse>().code]).toEqual([400, 'MissingMfaCode']);
    const wrong = await create(payload, { ...headers, 'mfa-code': '000000' });
    expect(wrong.json<ErrorResponse>().code).toBe('WrongMfaCode');
    expect((await list(headers)).some((listed) => listed.email === payload.email)).toBe(false);
    const created = await create(payload, {
      ...headers,
      'mfa-code': totp.generate({ timestamp: Date.now() + 30_000 }),
    });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json<Manager>().id;

    const patch = (body: object, extra: Record<string, string> = {}) =>
      t.app.inject({ method: 'PATCH', url: `/api/managers/${id}`, headers: { ...headers, ...extra }, payload: body });
    expect((await patch({ name: 'Eva R.' })).statusCode).toBe(200);
    const newPassword = await patch({ password: 'Chosen-by-thief-1' });
    expect([newPassword.statusCode, newPassword.json<ErrorResponse>().code]).toEqual([400, 'MissingMfaCode']);
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/auth/signin',
      payload: { email: payload.email, password: 'Chosen-by-thief-1' },
    });
    expect(response.statusCode).toBe(401);
  });

  it('answers 401 without a token', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/managers' })).statusCode).toBe(401);
  });
});

describe('managers: every change is in the audit log', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('records creation, update and removal with who, from where, before and after, and never a password', async () => {
    const organization = await createTestOrganization(t.db);
    const bar = (await createTestAccount(t.db, organization.id, 'Bar')).id;
    const patio = (await createTestAccount(t.db, organization.id, 'Patio')).id;
    const adminUser = await createTestUser(t.db, { role: 'admin', organizationId: organization.id });
    const admin = bearer((await signIn(t.app, adminUser.email, adminUser.password)).accessToken);
    const send = (method: 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object) =>
      t.app.inject({ method, url, headers: admin, remoteAddress: '198.51.100.30', ...(payload && { payload }) });

    const created = (
      await send('POST', '/api/managers', {
        name: 'Ana',
        email: 'ana@example.com',
        password: PASSWORD,
        accountIds: [bar],
      })
    ).json<Manager>();
    const renamed = await send('PATCH', `/api/managers/${created.id}`, {
      name: 'Ana María',
      accountIds: [patio],
      password: 'Another-pass-2',
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect((await send('DELETE', `/api/managers/${created.id}`)).statusCode).toBe(204);
    // A refused change is not a change: the manager is gone, so this answers 404 and writes nothing.
    expect((await send('DELETE', `/api/managers/${created.id}`)).statusCode).toBe(404);

    const rows = (await listAuditEntries(t.db, { organizationId: organization.id }))
      .filter((row) => row.target === `user:${created.id}`)
      .reverse();
    const common = { actor_user_id: adminUser.id, actor_email: adminUser.email, ip: '198.51.100.30' };
    const ana = { name: 'Ana', email: 'ana@example.com', language: 'en', accountIds: [bar] };
    const anaMaria = { name: 'Ana María', email: 'ana@example.com', language: 'en', accountIds: [patio] };
    expect(rows).toEqual([
      expect.objectContaining({ ...common, action: 'manager.created', before: null, after: ana }),
      expect.objectContaining({
        ...common,
        action: 'manager.updated',
        before: ana,
        after: { ...anaMaria, passwordChanged: true },
      }),
      expect.objectContaining({ ...common, action: 'manager.deleted', before: anaMaria, after: null }),
    ]);
    const recorded = JSON.stringify(rows);
    expect(recorded).not.toContain(PASSWORD);
    expect(recorded).not.toContain('Another-pass-2');
    expect(recorded).not.toContain('scrypt$');
  });
});
