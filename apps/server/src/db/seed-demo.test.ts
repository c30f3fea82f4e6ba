import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, signIn, type TestApp } from '../../test/test-app.ts';
import { waitFor } from '../../test/wait-for.ts';
import { createDatabase, type Db } from './database.ts';
import {
  completeDemoSeed,
  DEMO_BOOKSHOP,
  DEMO_ORGANIZATION,
  DEMO_PASSWORD,
  demoLogins,
  demoUsers,
  seedDemo,
  seedDemoOrganizations,
} from './seed-demo.ts';

const NOW = new Date('2026-06-15T18:00:00Z');

describe('seedDemo', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({}, { jobs: true });
  });
  afterAll(() => t?.close());

  async function organizationNamed(name: string) {
    return t.db.selectFrom('organizations').selectAll().where('name', '=', name).executeTakeFirstOrThrow();
  }

  it('seeds Demo Café with three accounts and one user per role into an empty database, once', async () => {
    // Ten days of sales keep the test fast; main seeds a year the same way.
    expect(await seedDemo(t.db, { days: 10, now: NOW })).toBe(true);

    const organizations = await t.db.selectFrom('organizations').select('name').orderBy('name').execute();
    expect(organizations.map((o) => o.name)).toEqual([DEMO_ORGANIZATION, DEMO_BOOKSHOP.name]);
    const organization = await organizationNamed('Demo Café');
    const guatemala = await t.db.selectFrom('countries').select('id').where('code', '=', 'GT').executeTakeFirst();
    expect(organization?.country_id).toBe(guatemala?.id);
    expect(organization?.time_zone).toBe('America/Guatemala');

    const accounts = await t.db
      .selectFrom('accounts')
      .select(['id', 'organization_id'])
      .where('organization_id', '=', organization.id)
      .execute();
    expect(accounts).toHaveLength(3);
    const bpts = await t.db
      .selectFrom('bpts')
      .select(['account_id', 'currency', 'tax_bps'])
      .where('organization_id', '=', organization.id)
      .execute();
    expect(bpts.map((bpt) => bpt.account_id).sort()).toEqual(accounts.map((account) => account.id).sort());
    expect(bpts.every((bpt) => bpt.currency === 'GTQ' && bpt.tax_bps === 1200)).toBe(true);

    const users = await t.db
      .selectFrom('users')
      .select(['id', 'email', 'role', 'organization_id'])
      .where((eb) => eb.or([eb('organization_id', '=', organization.id), eb('organization_id', 'is', null)]))
      .execute();
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

    // The start banner lists every user seeded, with the organization each signs in to.
    const logins = await t.db
      .selectFrom('users')
      .leftJoin('organizations', 'organizations.id', 'users.organization_id')
      .select(['users.email', 'users.role', 'organizations.name as organization'])
      .orderBy('users.email')
      .execute();
    expect(logins).toEqual([...demoLogins].sort((a, b) => a.email.localeCompare(b.email)));

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
    expect(counts).toEqual([2, 4, 4, 5, 1]);
  });

  it('records the sales through settleInvoice: settled invoices, their ledger rows and the daily rollup agree', async () => {
    const cafe = await organizationNamed(DEMO_ORGANIZATION);
    const invoices = await t.db
      .selectFrom('invoices')
      .select(['status', 'settled_at', 'created_at'])
      .where('organization_id', '=', cafe.id)
      .execute();
    // Ten days at 20–60 sales a day, none of them after `now`.
    expect(invoices.length).toBeGreaterThan(10 * 15);
    expect(invoices.length).toBeLessThan(10 * 70);
    expect(invoices.every((invoice) => invoice.status === 'settled')).toBe(true);
    expect(invoices.every((invoice) => (invoice.settled_at as Date) <= NOW)).toBe(true);

    const ledger = await t.db
      .selectFrom('transactions')
      .select((eb) => [
        eb.fn.countAll<string>().as('count'),
        eb.fn.sum<string>('total_msat').as('msat'),
        eb.fn.sum<string>('total_minor').as('minor'),
        eb.fn.sum<string>('tip_minor').as('tips'),
      ])
      .where('organization_id', '=', cafe.id)
      .executeTakeFirstOrThrow();
    expect(Number(ledger.count)).toBe(invoices.length);
    // Demo Café converts 40 % of its income to GTQ.
    const splits = await t.db
      .selectFrom('transactions')
      .select(['fiat_bps', 'lightning_bps', (eb) => eb.fn.sum<string>('fiat_income_minor').as('fiat')])
      .where('organization_id', '=', cafe.id)
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
      .where('organization_id', '=', cafe.id)
      .executeTakeFirstOrThrow();
    expect(rollup).toEqual(ledger);
    // The counter and terrace take tips; the online store does not.
    const tipsByChannel = await t.db
      .selectFrom('transactions')
      .innerJoin('bpts', 'bpts.id', 'transactions.bpt_id')
      .select(['bpts.channel', (eb) => eb.fn.sum<string>('transactions.tip_minor').as('tips')])
      .where('transactions.organization_id', '=', cafe.id)
      .groupBy('bpts.channel')
      .execute();
    expect(Object.fromEntries(tipsByChannel.map((row) => [row.channel, BigInt(row.tips) > 0n]))).toEqual({
      online: false,
      store: true,
    });
  });

  it("leaves the café's last week of bank shares to pay, as if back office paid the older ones, rollups included", async () => {
    const cafe = await organizationNamed(DEMO_ORGANIZATION);
    const weekAgo = new Date(NOW.getTime() - 7 * 86_400_000);
    const sales = await t.db
      .selectFrom('transactions')
      .select(['settled_at', 'disbursed', 'fiat_income_minor', 'onchain_msat', 'lightning_msat'])
      .where('organization_id', '=', cafe.id)
      .execute();
    expect(sales.some((sale) => sale.disbursed)).toBe(true);
    expect(sales.some((sale) => !sale.disbursed)).toBe(true);
    expect(sales.every((sale) => sale.disbursed === sale.settled_at < weekAgo)).toBe(true);
    const unpaid = sales.filter((sale) => !sale.disbursed);
    const rollup = await t.db
      .selectFrom('transaction_daily')
      .select((eb) => [
        eb.fn.sum<string>('fiat_to_disburse_minor').as('fiat'),
        eb.fn.sum<string>('bitcoin_to_disburse_msat').as('msat'),
      ])
      .where('organization_id', '=', cafe.id)
      .executeTakeFirstOrThrow();
    expect(BigInt(rollup.fiat)).toBe(unpaid.reduce((sum, sale) => sum + BigInt(sale.fiat_income_minor), 0n));
    // Back office's transfer pays the bank share only; the bitcoin shares wait for their payouts.
    expect(BigInt(rollup.msat)).toBe(
      sales.reduce((sum, sale) => sum + BigInt(sale.onchain_msat) + BigInt(sale.lightning_msat), 0n),
    );
    const totals = await t.db
      .selectFrom('disbursement_totals')
      .select(['pending_count', 'paid_count'])
      .where('organization_id', '=', cafe.id)
      .executeTakeFirstOrThrow();
    expect(Number(totals.pending_count)).toBe(unpaid.length);
    expect(Number(totals.paid_count)).toBe(sales.length - unpaid.length);
  });

  it('gives back office a second merchant to verify, with unverified details and unpaid fiat sales', async () => {
    const bookshop = await organizationNamed(DEMO_BOOKSHOP.name);
    expect(bookshop).toMatchObject({
      currency: 'MXN',
      language: 'es',
      time_zone: 'America/Mexico_City',
      bank_verified: false,
      crypto_verified: false,
      disbursement_address_verified: false,
      conversion_address_verified: false,
      kyb_verified: false,
      blocked: false,
    });
    expect(bookshop.onchain_address).toMatch(/^bcrt1/);
    expect(bookshop.lightning_address).toContain('@');
    const kyb = await t.db
      .selectFrom('kyb_documents')
      .select('file_name')
      .where('organization_id', '=', bookshop.id)
      .execute();
    expect(kyb).toHaveLength(1);
    const banking = await t.db
      .selectFrom('banking_info')
      .select('id')
      .where('organization_id', '=', bookshop.id)
      .execute();
    expect(banking).toHaveLength(0);
    const admin = await t.db
      .selectFrom('users')
      .select(['role', 'email'])
      .where('organization_id', '=', bookshop.id)
      .execute();
    expect(admin).toEqual([{ role: 'admin', email: DEMO_BOOKSHOP.admin.email }]);

    const sales = await t.db
      .selectFrom('transactions')
      .select(['currency', 'fiat_bps', 'onchain_bps', 'disbursed', 'fiat_income_minor'])
      .where('organization_id', '=', bookshop.id)
      .execute();
    expect(sales.length).toBeGreaterThan(7 * 15);
    expect(sales.every((sale) => sale.currency === 'MXN' && sale.fiat_bps === 5000 && sale.onchain_bps === 5000)).toBe(
      true,
    );
    expect(sales.every((sale) => !sale.disbursed && BigInt(sale.fiat_income_minor) > 0n)).toBe(true);
  });

  it('writes the same sales from the same seed', async () => {
    const other = await createTestApp({}, { jobs: true });
    try {
      await seedDemo(other.db, { days: 10, now: NOW });
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

  it('completes a seed stopped half way, as by kill -9, with no sale recorded twice', async () => {
    const DAYS = 30;
    const reference = await createTestApp({}, { jobs: true });
    const stopped = await createTestApp({}, { jobs: true });
    // The seed's own connections, told apart so that they alone can be cut.
    const url = new URL(stopped.config.databaseUrl as string);
    url.searchParams.set('application_name', 'demo-seed-stopped');
    const doomed = createDatabase(url.toString());
    try {
      await seedDemo(reference.db, { days: DAYS, now: NOW });

      expect(await seedDemoOrganizations(stopped.db)).toBe(true);
      expect(await seedDemoOrganizations(stopped.db)).toBe(false);
      const seeding = completeDemoSeed(doomed, { days: DAYS, now: NOW });
      const failed = seeding.then(
        () => false,
        () => true,
      );
      // Cut as soon as a first batch of days has committed: PostgreSQL then sees what a killed
      // process leaves, its connections gone and their open transactions rolled back.
      await waitFor(async () => (await countSales(stopped.db)) > 0, 60_000);
      await sql`select pg_terminate_backend(pid) from pg_stat_activity where application_name = 'demo-seed-stopped'`.execute(
        stopped.db,
      );
      expect(await failed).toBe(true);
      const cut = await countSales(stopped.db);
      const all = await countSales(reference.db);
      expect(cut).toBeGreaterThan(0);
      expect(cut).toBeLessThan(all);

      await completeDemoSeed(stopped.db, { days: DAYS, now: NOW });
      expect(await countSales(stopped.db)).toBe(all);
      expect(await ledger(stopped.db)).toEqual(await ledger(reference.db));
      // A later start finds nothing left to do.
      await completeDemoSeed(stopped.db, { days: DAYS, now: NOW });
      expect(await ledger(stopped.db)).toEqual(await ledger(reference.db));
    } finally {
      await doomed.destroy().catch(() => {});
      await stopped.close();
      await reference.close();
    }
  }, 300_000);
});

describe('the demo seed beside a merchant at work', () => {
  it('leaves terminals free to change while it records their sales', async () => {
    const t = await createTestApp({}, { jobs: true });
    // The seed's own connections, told apart from the API's.
    const url = new URL(t.config.databaseUrl as string);
    url.searchParams.set('application_name', 'demo-seed-busy');
    const seedDb = createDatabase(url.toString());
    let release = () => {};
    let seeding: Promise<void> | undefined;
    try {
      await seedDemoOrganizations(t.db);
      const { accessToken } = await signIn(t.app, 'admin@rayo.local', DEMO_PASSWORD);
      const terminals = await t.db.selectFrom('bpts').select(['id', 'name']).execute();
      const terminal = (name: string) => terminals.find((bpt) => bpt.name === name)?.id as string;

      // The seed is held inside its first batch, past writing the batch's sales (and so holding
      // what they lock on their terminals), by a lock on a table the batch writes next.
      const released = new Promise<void>((resolve) => {
        release = resolve;
      });
      const holding = t.db.transaction().execute(async (trx) => {
        await sql`lock table disbursement_totals in exclusive mode`.execute(trx);
        await released;
      });
      seeding = completeDemoSeed(seedDb, { days: 3, now: NOW });
      await waitFor(async () => (await countSeedLocks(t.db)) > 0, 60_000);

      const writes = [
        { method: 'PATCH', url: `/api/bpts/${terminal('Terrace waiter')}`, payload: { shareable: true } },
        { method: 'POST', url: `/api/bpts/${terminal('Counter till')}/share-token` },
        { method: 'PATCH', url: `/api/bpts/${terminal('Counter till')}`, payload: { shareable: false, name: 'Till' } },
        { method: 'DELETE', url: `/api/bpts/${terminal('Web orders')}` },
      ] as const;
      for (const write of writes) {
        let status: number | undefined;
        const answered = t.app.inject({ ...write, headers: bearer(accessToken) }).then((response) => {
          status = response.statusCode;
        });
        // Either it answers, or PostgreSQL shows it waiting for a lock, where it would stay
        // until the seed's batch ends.
        const outcome = await waitFor(async () => {
          if (status !== undefined) return 'answered';
          const { rows } = await sql`select 1 from pg_stat_activity
            where wait_event_type = 'Lock' and query ilike 'update "bpts"%'`.execute(t.db);
          return rows.length > 0 ? 'waits on the seed' : undefined;
        }, 60_000);
        expect(`${write.method} ${write.url}: ${outcome}`).toBe(`${write.method} ${write.url}: answered`);
        await answered;
        expect(status, `${write.method} ${write.url}`).toBeLessThan(300);
      }
      // The seed was still inside its batch all along.
      expect(await countSeedLocks(t.db)).toBeGreaterThan(0);

      release();
      await holding;
      await seeding;
      expect(await countSales(t.db)).toBeGreaterThan(0);
    } finally {
      release();
      await seeding?.catch(() => {});
      await seedDb.destroy().catch(() => {});
      await t.close();
    }
  }, 300_000);
});

/** The seed's connections waiting for a lock. */
async function countSeedLocks(db: Db): Promise<number> {
  const { rows } = await sql`select 1 from pg_stat_activity
    where application_name = 'demo-seed-busy' and wait_event_type = 'Lock'`.execute(db);
  return rows.length;
}

async function countSales(db: Db): Promise<number> {
  const row = await db
    .selectFrom('invoices')
    .select((eb) => eb.fn.countAll<string>().as('count'))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** Every sale with what settlement and back office made of it, and the rollups, by organization name. */
async function ledger(db: Db) {
  const sales = await db
    .selectFrom('transactions')
    .innerJoin('organizations', 'organizations.id', 'transactions.organization_id')
    .select([
      'organizations.name',
      'transactions.settled_at',
      'transactions.total_minor',
      'transactions.total_msat',
      'transactions.tip_minor',
      'transactions.fiat_income_minor',
      'transactions.disbursed',
    ])
    .orderBy('organizations.name')
    .orderBy('transactions.settled_at')
    .orderBy('transactions.total_msat')
    .execute();
  const rollups = await db
    .selectFrom('transaction_daily')
    .innerJoin('organizations', 'organizations.id', 'transaction_daily.organization_id')
    .select((eb) => [
      'organizations.name',
      eb.fn.sum<string>('transaction_daily.count').as('count'),
      eb.fn.sum<string>('transaction_daily.total_msat').as('msat'),
      eb.fn.sum<string>('transaction_daily.fiat_to_disburse_minor').as('fiat'),
    ])
    .groupBy('organizations.name')
    .orderBy('organizations.name')
    .execute();
  const invoices = await db
    .selectFrom('invoices')
    .select((eb) => [eb.fn.countAll<string>().as('count'), eb.fn.count<string>('payment_hash').distinct().as('hashes')])
    .executeTakeFirstOrThrow();
  return { sales, rollups, invoices };
}
