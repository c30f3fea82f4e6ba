import type { AccountSummary, ErrorResponse } from '@rayo/shared';
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

/** The dropdown's shape: id and name only. */
const summary = ({ id, name }: AccountSummary): AccountSummary => ({ id, name });

type Caller = 'superAdmin' | 'admin' | 'manager' | 'unlinkedManager' | 'backOffice';

describe('GET /api/account/all', () => {
  let t: TestApp;
  let counter: AccountSummary;
  let bar: AccountSummary;
  let web: AccountSummary;
  let elsewhere: AccountSummary;
  const tokens = new Map<Caller, string>();

  beforeAll(async () => {
    t = await createTestApp();
    const organization = await createTestOrganization(t.db, 'Shop');
    counter = summary(await createTestAccount(t.db, organization.id, 'Counter'));
    bar = summary(await createTestAccount(t.db, organization.id, 'Bar'));
    web = summary(await createTestAccount(t.db, organization.id, 'Web'));
    const other = await createTestOrganization(t.db, 'Other shop');
    elsewhere = summary(await createTestAccount(t.db, other.id, 'Elsewhere'));
    await createTestUser(t.db, { role: 'admin', organizationId: other.id });

    const users: Record<Caller, { email: string; password: string }> = {
      superAdmin: await createTestUser(t.db, { role: 'super_admin', organizationId: organization.id }),
      admin: await createTestUser(t.db, { role: 'admin', organizationId: organization.id }),
      manager: await createTestUser(t.db, {
        role: 'manager',
        organizationId: organization.id,
        accountIds: [counter.id, web.id],
      }),
      unlinkedManager: await createTestUser(t.db, { role: 'manager', organizationId: organization.id }),
      backOffice: await createTestUser(t.db, { role: 'back_office', organizationId: null }),
    };
    for (const [caller, user] of Object.entries(users)) {
      tokens.set(caller as Caller, (await signIn(t.app, user.email, user.password)).accessToken);
    }
  });
  afterAll(() => t?.close());

  function list(caller?: Caller) {
    const accessToken = caller && tokens.get(caller);
    return t.app.inject({
      method: 'GET',
      url: '/api/account/all',
      ...(accessToken ? { headers: bearer(accessToken) } : {}),
    });
  }

  it('answers 401 Unauthorized without a token', async () => {
    const response = await list();
    expect(response.statusCode).toBe(401);
    expect(response.json<ErrorResponse>().code).toBe('Unauthorized');
  });

  it.each(['superAdmin', 'admin'] as const)('shows %s every account of its organization only, by name', async (who) => {
    const response = await list(who);
    expect(response.statusCode).toBe(200);
    const body = response.json<AccountSummary[]>();
    expect(body).toEqual([bar, counter, web]);
    expect(body).not.toContainEqual(elsewhere);
  });

  it('shows a manager only the linked accounts', async () => {
    const response = await list('manager');
    expect(response.statusCode).toBe(200);
    expect(response.json<AccountSummary[]>()).toEqual([counter, web]);
  });

  it('shows a manager without links no account', async () => {
    const response = await list('unlinkedManager');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual([]);
  });

  it('answers 403 Forbidden to back office', async () => {
    const response = await list('backOffice');
    expect(response.statusCode).toBe(403);
    expect(response.json<ErrorResponse>().code).toBe('Forbidden');
  });
});
