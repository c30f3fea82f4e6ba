import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { DEMO_ORGANIZATION, demoUsers, seedDemo } from './seed-demo.ts';

describe('seedDemo', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t?.close());

  it('seeds Demo Café with three accounts and one user per role into an empty database, once', async () => {
    expect(await seedDemo(t.db)).toBe(true);

    const organizations = await t.db.selectFrom('organizations').selectAll().execute();
    expect(organizations).toHaveLength(1);
    const [organization] = organizations;
    expect(organization?.name).toBe(DEMO_ORGANIZATION);
    expect(organization?.name).toBe('Demo Café');
    const guatemala = await t.db.selectFrom('countries').select('id').where('code', '=', 'GT').executeTakeFirst();
    expect(organization?.country_id).toBe(guatemala?.id);
    expect(organization?.time_zone).toBe('America/Guatemala');

    const accounts = await t.db.selectFrom('accounts').select(['id', 'organization_id']).execute();
    expect(accounts).toHaveLength(3);
    expect(accounts.every((account) => account.organization_id === organization?.id)).toBe(true);
    const bpts = await t.db.selectFrom('bpts').select(['account_id', 'currency', 'tax_bps']).execute();
    expect(bpts.map((bpt) => bpt.account_id).sort()).toEqual(accounts.map((account) => account.id).sort());
    expect(bpts.every((bpt) => bpt.currency === 'GTQ' && bpt.tax_bps === 1200)).toBe(true);

    const users = await t.db.selectFrom('users').select(['id', 'email', 'role', 'organization_id']).execute();
    expect(users.map((user) => user.role).sort()).toEqual(['admin', 'back_office', 'manager', 'super_admin']);
    expect(users.map((user) => user.email).sort()).toEqual(demoUsers.map((user) => user.email).sort());
    for (const user of users) {
      expect(user.organization_id).toBe(user.role === 'back_office' ? null : organization?.id);
    }

    const manager = users.find((user) => user.role === 'manager');
    const links = await t.db.selectFrom('manager_accounts').selectAll().execute();
    expect(links).toHaveLength(1);
    expect(links[0]?.user_id).toBe(manager?.id);
    expect(accounts.map((account) => account.id)).toContain(links[0]?.account_id);

    expect(await seedDemo(t.db)).toBe(false);
    const counts = await Promise.all(
      (['organizations', 'accounts', 'bpts', 'users', 'manager_accounts'] as const).map(async (table) =>
        Number(
          (
            await t.db
              .selectFrom(table)
              .select((eb) => eb.fn.countAll<string>().as('count'))
              .executeTakeFirstOrThrow()
          ).count,
        ),
      ),
    );
    expect(counts).toEqual([1, 3, 3, 4, 1]);
  });
});
