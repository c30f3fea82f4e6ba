import type { Account, Bpt, ErrorResponse, Invoice, Manager } from '@rayo/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, openTestShop, signIn, type TestApp } from '../../../test/test-app.ts';
import { buildApp } from '../../app.ts';
import { createDatabase, poolOf } from '../../db/database.ts';
import { startRuntime } from '../../runtime.ts';

/**
 * Round trips to PostgreSQL are most of what an invoice costs (docs/benchmarks.md, Payments): a
 * terminal's charge is one statement, which writes Rayo's invoice and the devnet node's record of
 * it only if the caller's user, the terminal, its organization and the rate are still as the last
 * charge read them. The checks stay the same, and what they see is never older than that statement.
 */
describe('a terminal charge', () => {
  let t: TestApp;
  beforeAll(async () => {
    // Without the job worker and settlement stream, every query on the pool is the request's own.
    t = await createTestApp({}, { jobs: false });
  });
  afterAll(async () => t?.close());

  async function countQueries<T>(run: () => Promise<T>): Promise<{ result: T; queries: number }> {
    const pool = poolOf(t.db);
    let queries = 0;
    // Kysely takes a pooled connection for every statement outside a transaction.
    const count = () => {
      queries += 1;
    };
    pool.on('acquire', count);
    try {
      return { result: await run(), queries };
    } finally {
      pool.off('acquire', count);
    }
  }

  async function openTill(currency: string) {
    const { admin, organization, user } = await openTestShop(t);
    const account = (
      await t.app.inject({ method: 'POST', url: '/api/accounts', headers: admin, payload: { name: 'Counter' } })
    ).json<Account>();
    const bpt = (
      await t.app.inject({
        method: 'POST',
        url: '/api/bpts',
        headers: admin,
        payload: { name: 'Till', accountId: account.id, channel: 'store', currency },
      })
    ).json<Bpt>();
    const charge = () =>
      t.app.inject({
        method: 'POST',
        url: `/api/bpts/${bpt.id}/invoices`,
        headers: admin,
        payload: { amount: '4.20' },
      });
    return { organization, user, admin, account, bpt, charge };
  }

  /** A second server process on the same database, as another machine behind the balancer runs. */
  async function withSecondProcess(run: (other: Awaited<ReturnType<typeof buildApp>>) => Promise<void>) {
    const url = t.config.databaseUrl as string;
    const otherDb = createDatabase(url, 2);
    const otherRuntime = await startRuntime(t.config, { db: otherDb, url }, { jobs: false });
    const other = await buildApp(otherRuntime.deps);
    try {
      await run(other);
    } finally {
      await other.close();
      await otherRuntime.stop();
      await otherDb.destroy();
    }
  }

  it('costs one statement, and the devnet node can still be paid', async () => {
    const { charge } = await openTill('USD');
    // The first charge reads the terminal (and loads the devnet node's key, once per process).
    expect((await charge()).statusCode).toBe(201);
    const { result, queries } = await countQueries(charge);
    expect(result.statusCode, result.body).toBe(201);
    expect(queries).toBe(1);

    const invoice = result.json<Invoice>();
    const paid = await t.app.inject({
      method: 'POST',
      url: '/api/devnet/pay',
      payload: { paymentRequest: invoice.paymentRequest },
    });
    expect(paid.statusCode, paid.body).toBe(200);
  });

  it('still refuses a stale rate', async () => {
    const { charge } = await openTill('EUR');
    expect((await charge()).statusCode).toBe(201);
    const stale = new Date(Date.now() - (t.config.rates.maxAgeSeconds + 5) * 1000);
    await t.db.updateTable('rates').set({ fetched_at: stale }).where('currency', '=', 'EUR').execute();
    expect((await charge()).json<ErrorResponse>().code).toBe('RateUnavailable');
  });

  it('is refused at once by a second server process once the first blocks the organization or deletes the user', async () => {
    const { organization, user, admin, account, bpt } = await openTill('USD');
    await withSecondProcess(async (other) => {
      const chargeThere = () =>
        other.inject({
          method: 'POST',
          url: `/api/bpts/${bpt.id}/invoices`,
          headers: admin,
          payload: { amount: '4.20' },
        });
      // The second process has verified the token and charged before the change.
      expect((await chargeThere()).statusCode).toBe(201);
      await t.db
        .updateTable('organizations')
        .set({ blocked: true, blocked_reason: 'other' })
        .where('id', '=', organization.id)
        .execute();
      expect((await chargeThere()).json<ErrorResponse>().code).toBe('OrganizationBlocked');
      await t.db
        .updateTable('organizations')
        .set({ blocked: false, blocked_reason: null })
        .where('id', '=', organization.id)
        .execute();
      expect((await chargeThere()).statusCode).toBe(201);

      const manager = { name: 'Gone', email: `gone-${bpt.id.slice(0, 8)}@example.com`, password: 'Manager-pass-1' };
      const created = (
        await t.app.inject({
          method: 'POST',
          url: '/api/managers',
          headers: admin,
          payload: { ...manager, accountIds: [account.id] },
        })
      ).json<Manager>();
      const session = bearer((await signIn(t.app, manager.email, manager.password)).accessToken);
      expect((await other.inject({ method: 'GET', url: '/api/bpts', headers: session })).statusCode).toBe(200);
      const removed = await t.app.inject({ method: 'DELETE', url: `/api/managers/${created.id}`, headers: admin });
      expect(removed.statusCode).toBe(204);
      expect((await other.inject({ method: 'GET', url: '/api/bpts', headers: session })).statusCode).toBe(401);

      expect((await chargeThere()).statusCode).toBe(201);
      await t.db.deleteFrom('users').where('id', '=', user.id).execute();
      expect((await chargeThere()).statusCode).toBe(401);
    });
  });

  it('in a second server process, prices the next charge from what the first changed', async () => {
    const { organization, admin, bpt } = await openTill('USD');
    await withSecondProcess(async (other) => {
      const chargeThere = async () => {
        const answer = await other.inject({
          method: 'POST',
          url: `/api/bpts/${bpt.id}/invoices`,
          headers: admin,
          payload: { amount: '4.20' },
        });
        expect(answer.statusCode, answer.body).toBe(201);
        const invoice = answer.json<Invoice>();
        const row = await t.db
          .selectFrom('invoices')
          .select(['description', 'rate_minor_per_btc'])
          .where('id', '=', invoice.id)
          .executeTakeFirstOrThrow();
        return { ...invoice, ...row };
      };
      const before = await chargeThere();
      expect(before.tax).toBe('0.00');

      const taxed = await t.app.inject({
        method: 'PATCH',
        url: `/api/bpts/${bpt.id}`,
        headers: admin,
        payload: { taxPercentage: '10' },
      });
      expect(taxed.statusCode, taxed.body).toBe(200);
      expect((await chargeThere()).tax).toBe('0.42');

      const rate = BigInt(before.rate_minor_per_btc) + 100n;
      await t.db.updateTable('rates').set({ rate_minor_per_btc: rate }).where('currency', '=', 'USD').execute();
      expect((await chargeThere()).rate_minor_per_btc).toBe(rate.toString());

      await t.db.updateTable('organizations').set({ name: 'Renamed' }).where('id', '=', organization.id).execute();
      expect((await chargeThere()).description).toBe('Renamed · Till');
    });
  });

  it('writes charges made at once together, each only if what it was priced from still holds', async () => {
    const fresh = await openTill('USD');
    const changed = await openTill('USD');
    expect((await fresh.charge()).statusCode).toBe(201);
    expect((await changed.charge()).statusCode).toBe(201);
    await t.db.updateTable('bpts').set({ tax_bps: 1000 }).where('id', '=', changed.bpt.id).execute();
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, n) => (n % 2 === 0 ? fresh.charge() : changed.charge())),
    );
    const invoices = answers.map((answer) => {
      expect(answer.statusCode, answer.body).toBe(201);
      return answer.json<Invoice>();
    });
    expect(invoices.map((invoice) => invoice.tax)).toEqual(
      Array.from({ length: 8 }, (_, n) => (n % 2 ? '0.42' : '0.00')),
    );
    expect(new Set(invoices.map((invoice) => invoice.paymentHash)).size).toBe(8);
    const stored = await t.db
      .selectFrom('devnet_invoices')
      .select('payment_hash')
      .where(
        'payment_hash',
        'in',
        invoices.map((invoice) => invoice.paymentHash),
      )
      .execute();
    expect(stored).toHaveLength(8);
  });

  it('still refuses a blocked organization at once', async () => {
    const { organization, charge } = await openTill('GTQ');
    expect((await charge()).statusCode).toBe(201);
    await t.db
      .updateTable('organizations')
      .set({ blocked: true, blocked_reason: 'other' })
      .where('id', '=', organization.id)
      .execute();
    expect((await charge()).json<ErrorResponse>().code).toBe('OrganizationBlocked');
  });
});
