import type { Bpt, TerminalInfo } from '@rayo/shared';
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

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ FIXED_RATES: 'GTQ=730000' });
});
afterAll(() => t.close());

describe('the terminal names its organization’s country', () => {
  it('so that a shared link, opened without a session, writes numbers as that country does', async () => {
    const organization = await createTestOrganization(t.db);
    const account = await createTestAccount(t.db, organization.id, 'Counter');
    const user = await createTestUser(t.db, { role: 'admin', organizationId: organization.id });
    const admin = bearer((await signIn(t.app, user.email, user.password)).accessToken);
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/bpts',
      headers: admin,
      payload: { name: 'Till', accountId: account.id, currency: 'GTQ', shareable: true },
    });
    expect(created.statusCode, created.body).toBe(201);
    const bpt = created.json<Bpt>();

    const shared = await t.app.inject({ method: 'GET', url: `/api/terminal/${bpt.shareToken}` });
    expect(shared.statusCode, shared.body).toBe(200);
    expect(shared.json<TerminalInfo>().countryCode).toBe('GT');
    const own = await t.app.inject({ method: 'GET', url: `/api/bpts/${bpt.id}/terminal`, headers: admin });
    expect(own.json<TerminalInfo>().countryCode).toBe('GT');

    // And its language, which the shared page reads in when the browser asks for neither of ours.
    expect(shared.json<TerminalInfo>().language).toBe('en');
    await t.db.updateTable('organizations').set({ language: 'es' }).where('id', '=', organization.id).execute();
    const inSpanish = await t.app.inject({ method: 'GET', url: `/api/terminal/${bpt.shareToken}` });
    expect(inSpanish.json<TerminalInfo>().language).toBe('es');
  });
});
