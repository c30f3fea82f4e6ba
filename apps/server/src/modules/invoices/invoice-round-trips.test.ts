import type { Account, Bpt, ErrorResponse, Invoice } from '@rayo/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, openTestShop, type TestApp } from '../../../test/test-app.ts';
import { poolOf } from '../../db/database.ts';

/**
 * Round trips to PostgreSQL are most of what an invoice costs (docs/benchmarks.md, Payments): a
 * terminal's charge is the caller check, one read (terminal, organization, rate) and one write
 * (Rayo's invoice and the devnet node's record of it). The checks that read stays the same.
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
    const { admin, organization } = await openTestShop(t);
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
    return { organization, charge };
  }

  it('costs the caller check, one read and one write, and the devnet node can still be paid', async () => {
    const { charge } = await openTill('USD');
    // The first invoice also loads the devnet node's key, once per process.
    expect((await charge()).statusCode).toBe(201);
    const { result, queries } = await countQueries(charge);
    expect(result.statusCode, result.body).toBe(201);
    expect(queries).toBeLessThanOrEqual(3);

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

  it('still refuses a blocked organization at once', async () => {
    const { organization, charge } = await openTill('GTQ');
    expect((await charge()).statusCode).toBe(201);
    await t.db.updateTable('organizations').set({ blocked: true }).where('id', '=', organization.id).execute();
    expect((await charge()).json<ErrorResponse>().code).toBe('OrganizationDisabled');
  });
});
