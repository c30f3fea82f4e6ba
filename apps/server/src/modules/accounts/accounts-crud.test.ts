import type { Account, ErrorResponse } from '@rayo/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bearer,
  createTestApp,
  createTestOrganization,
  createTestUser,
  signIn,
  type TestApp,
} from '../../../test/test-app.ts';

describe('accounts: create, rename, delete', () => {
  let t: TestApp;
  let admin: { authorization: string };
  let manager: { authorization: string };
  let otherAdmin: { authorization: string };

  beforeAll(async () => {
    t = await createTestApp();
    const organization = await createTestOrganization(t.db);
    const other = await createTestOrganization(t.db);
    const users = {
      admin: await createTestUser(t.db, { role: 'admin', organizationId: organization.id }),
      manager: await createTestUser(t.db, { role: 'manager', organizationId: organization.id }),
      otherAdmin: await createTestUser(t.db, { role: 'admin', organizationId: other.id }),
    };
    admin = bearer((await signIn(t.app, users.admin.email, users.admin.password)).accessToken);
    manager = bearer((await signIn(t.app, users.manager.email, users.manager.password)).accessToken);
    otherAdmin = bearer((await signIn(t.app, users.otherAdmin.email, users.otherAdmin.password)).accessToken);
  });
  afterAll(() => t.close());

  async function create(payload: object, headers = admin) {
    return t.app.inject({ method: 'POST', url: '/api/accounts', headers, payload });
  }

  it('creates an account with and without an internal code', async () => {
    const withCode = await create({ name: '  Bar  ', internalCode: 'B-1' });
    expect(withCode.statusCode).toBe(201);
    expect(withCode.json<Account>()).toMatchObject({ name: 'Bar', internalCode: 'B-1' });
    const withoutCode = await create({ name: 'Patio' });
    expect(withoutCode.json<Account>().internalCode).toBeNull();
    const list = await t.app.inject({ method: 'GET', url: '/api/accounts', headers: admin });
    expect(list.json<Account[]>().map((a) => a.name)).toEqual(['Bar', 'Patio']);
  });

  it('refuses a blank name with MissingName', async () => {
    const response = await create({ name: '   ' });
    expect(response.statusCode).toBe(400);
    expect(response.json<ErrorResponse>().code).toBe('MissingName');
  });

  it('renames and clears the internal code', async () => {
    const account = (await create({ name: 'Old', internalCode: 'X' })).json<Account>();
    const renamed = await t.app.inject({
      method: 'PATCH',
      url: `/api/accounts/${account.id}`,
      headers: admin,
      payload: { name: 'New', internalCode: '' },
    });
    expect(renamed.json<Account>()).toEqual({ id: account.id, name: 'New', internalCode: null });
  });

  it('lets managers view but not change accounts', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/accounts', headers: manager })).statusCode).toBe(200);
    const response = await create({ name: 'Nope' }, manager);
    expect(response.statusCode).toBe(403);
    expect(response.json<ErrorResponse>().code).toBe('Forbidden');
  });

  it("never touches another organization's account", async () => {
    const account = (await create({ name: 'Mine' })).json<Account>();
    const patch = await t.app.inject({
      method: 'PATCH',
      url: `/api/accounts/${account.id}`,
      headers: otherAdmin,
      payload: { name: 'Theirs' },
    });
    expect(patch.statusCode).toBe(404);
    const remove = await t.app.inject({ method: 'DELETE', url: `/api/accounts/${account.id}`, headers: otherAdmin });
    expect(remove.statusCode).toBe(404);
  });

  it('deletes an unused account and refuses one a terminal uses', async () => {
    const unused = (await create({ name: 'Unused' })).json<Account>();
    expect(
      (await t.app.inject({ method: 'DELETE', url: `/api/accounts/${unused.id}`, headers: admin })).statusCode,
    ).toBe(204);
    const used = (await create({ name: 'Used' })).json<Account>();
    await t.app.inject({
      method: 'POST',
      url: '/api/bpts',
      headers: admin,
      payload: { name: 'Till', accountId: used.id, currency: 'USD' },
    });
    const refused = await t.app.inject({ method: 'DELETE', url: `/api/accounts/${used.id}`, headers: admin });
    expect(refused.statusCode).toBe(409);
    expect(refused.json<ErrorResponse>().code).toBe('AccountInUse');
    // Another organization learns nothing about it, not even that it is in use.
    const probe = await t.app.inject({ method: 'DELETE', url: `/api/accounts/${used.id}`, headers: otherAdmin });
    expect(probe.statusCode).toBe(404);
    expect(probe.json<ErrorResponse>().code).toBe('NotFound');
  });
});
