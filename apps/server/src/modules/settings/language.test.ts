import type { ErrorResponse, Manager, SignInResponse } from '@rayo/shared';
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

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const setLanguage = (headers: Record<string, string>, payload: object) =>
  t.app.inject({ method: 'PUT', url: '/api/settings/language', headers, payload });

describe("a user's language", () => {
  it('is changed in Settings and answered by every later sign-in, with an audit entry', async () => {
    const organization = await createTestOrganization(t.db);
    const user = await createTestUser(t.db, { role: 'admin', organizationId: organization.id });
    const session = await signIn(t.app, user.email, user.password);
    expect(session.language).toBe('en');

    const changed = await setLanguage(bearer(session.accessToken), { language: 'es' });
    expect(changed.statusCode, changed.body).toBe(204);
    expect((await signIn(t.app, user.email, user.password)).language).toBe('es');

    const audit = await listAuditEntries(t.db, { actorUserId: user.id });
    expect(audit.find((entry) => entry.action === 'settings.language_changed')).toMatchObject({
      target: `user:${user.id}`,
      before: { language: 'en' },
      after: { language: 'es' },
    });
  });

  it('is changed by any signed-in user, managers and back office included', async () => {
    const organization = await createTestOrganization(t.db);
    for (const role of ['manager', 'back_office'] as const) {
      const user = await createTestUser(t.db, {
        role,
        organizationId: role === 'manager' ? organization.id : null,
      });
      const session = await signIn(t.app, user.email, user.password);
      expect((await setLanguage(bearer(session.accessToken), { language: 'es' })).statusCode).toBe(204);
      expect((await signIn(t.app, user.email, user.password)).language).toBe('es');
    }
  });

  it('refuses a language other than EN and ES, changing nothing, and callers without a session', async () => {
    const organization = await createTestOrganization(t.db);
    const user = await createTestUser(t.db, { role: 'admin', organizationId: organization.id });
    const headers = bearer((await signIn(t.app, user.email, user.password)).accessToken);
    for (const payload of [{ language: 'fr' }, { language: 'ES' }, {}, { language: null }]) {
      const refused = await setLanguage(headers, payload);
      expect(refused.statusCode, JSON.stringify(payload)).toBe(400);
      expect(refused.json<ErrorResponse>().code).toEqual(expect.any(String));
    }
    expect((await signIn(t.app, user.email, user.password)).language).toBe('en');
    expect((await setLanguage({}, { language: 'es' })).statusCode).toBe(401);
  });
});

describe("a manager's language", () => {
  it('is chosen by the admin at creation and in an edit, and sets the manager’s sign-in language', async () => {
    const organization = await createTestOrganization(t.db);
    const account = await createTestAccount(t.db, organization.id, 'Bar');
    const adminUser = await createTestUser(t.db, { role: 'admin', organizationId: organization.id });
    const admin = bearer((await signIn(t.app, adminUser.email, adminUser.password)).accessToken);
    const email = 'lucia@example.com';

    const created = await t.app.inject({
      method: 'POST',
      url: '/api/managers',
      headers: admin,
      payload: { name: 'Lucía', email, password: PASSWORD, language: 'es', accountIds: [account.id] },
    });
    expect(created.statusCode, created.body).toBe(201);
    const manager = created.json<Manager>();
    expect(manager.language).toBe('es');
    expect((await signIn(t.app, email, PASSWORD)).language).toBe('es');

    const edited = await t.app.inject({
      method: 'PATCH',
      url: `/api/managers/${manager.id}`,
      headers: admin,
      payload: { language: 'en' },
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json<Manager>()).toMatchObject({ name: 'Lucía', language: 'en', accountIds: [account.id] });
    const session: SignInResponse = await signIn(t.app, email, PASSWORD);
    expect(session.language).toBe('en');

    const refused = await t.app.inject({
      method: 'PATCH',
      url: `/api/managers/${manager.id}`,
      headers: admin,
      payload: { language: 'de' },
    });
    expect(refused.statusCode).toBe(400);
  });

  it("is the organization's when the admin does not choose one", async () => {
    const organization = await createTestOrganization(t.db);
    await t.db.updateTable('organizations').set({ language: 'es' }).where('id', '=', organization.id).execute();
    const adminUser = await createTestUser(t.db, { role: 'admin', organizationId: organization.id });
    const admin = bearer((await signIn(t.app, adminUser.email, adminUser.password)).accessToken);
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/managers',
      headers: admin,
      payload: { name: 'Pedro', email: 'pedro@example.com', password: PASSWORD, accountIds: [] },
    });
    expect(created.json<Manager>().language).toBe('es');
  });
});
