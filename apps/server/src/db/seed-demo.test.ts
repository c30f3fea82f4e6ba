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
    // A week of sales keeps the test fast; main seeds a year the same way.
    expect(await seedDemo(t.db, { days: 7, now: new Date('2026-06-15T18:00:00Z') })).toBe(true);

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

  it('records the sales through settleInvoice: settled invoices, their ledger rows and the daily rollup agree', async () => {
    const invoices = await t.db.selectFrom('invoices').select(['status', 'settled_at', 'created_at']).execute();
    // A week at 20–60 sales a day, none of them after `now`.
    expect(invoices.length).toBeGreaterThan(7 * 15);
    expect(invoices.length).toBeLessThan(7 * 70);
    expect(invoices.every((invoice) => invoice.status === 'settled')).toBe(true);
    expect(invoices.every((invoice) => (invoice.settled_at as Date) <= new Date('2026-06-15T18:00:00Z'))).toBe(true);

    const ledger = await t.db
      .selectFrom('transactions')
      .select((eb) => [
        eb.fn.countAll<string>().as('count'),
        eb.fn.sum<string>('total_msat').as('msat'),
        eb.fn.sum<string>('total_minor').as('minor'),
        eb.fn.sum<string>('tip_minor').as('tips'),
      ])
      .executeTakeFirstOrThrow();
    expect(Number(ledger.count)).toBe(invoices.length);
    // Demo Café converts 40 % of its income to GTQ.
    const splits = await t.db
      .selectFrom('transactions')
      .select(['fiat_bps', 'lightning_bps', (eb) => eb.fn.sum<string>('fiat_income_minor').as('fiat')])
      .groupBy(['fiat_bps', 'lightning_bps'])
      .execute();
    expect(splits).toHaveLength(1);
    expect(splits[0]).toMatchObject({ fiat_bps: 4000, lightning_bps: 6000 });
    expect(BigInt(splits[0]?.fiat ?? 0)).toBeGreaterThan(0n);
    const rollup = await t.db
      .selectFrom('transaction_daily')
      .select((eb) => [
        eb.fn.sum<string>('count').as('count'),
        eb.fn.sum<string>('total_msat').as('msat'),
        eb.fn.sum<string>('total_minor').as('minor'),
        eb.fn.sum<string>('tip_minor').as('tips'),
      ])
      .executeTakeFirstOrThrow();
    expect(rollup).toEqual(ledger);
    // The counter and terrace take tips; the online store does not.
    const tipsByChannel = await t.db
      .selectFrom('transactions')
      .innerJoin('bpts', 'bpts.id', 'transactions.bpt_id')
      .select(['bpts.channel', (eb) => eb.fn.sum<string>('transactions.tip_minor').as('tips')])
      .groupBy('bpts.channel')
      .execute();
    expect(Object.fromEntries(tipsByChannel.map((row) => [row.channel, BigInt(row.tips) > 0n]))).toEqual({
      online: false,
      store: true,
    });
  });

  it('writes the same sales from the same seed', async () => {
    const other = await createTestApp();
    try {
      await seedDemo(other.db, { days: 7, now: new Date('2026-06-15T18:00:00Z') });
      const figures = (db: typeof t.db) =>
        db
          .selectFrom('transactions')
          .select(['settled_at', 'total_minor', 'total_msat', 'tip_minor'])
          .orderBy('settled_at')
          .execute();
      expect(await figures(other.db)).toEqual(await figures(t.db));
    } finally {
      await other.close();
    }
  });
});
