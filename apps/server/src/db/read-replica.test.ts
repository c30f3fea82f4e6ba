import { chmod, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import {
  type CountryReport,
  type DayClose,
  dayAt,
  type Invoice,
  type SignInResponse,
  type TransactionPage,
  type TransactionSums,
} from '@rayo/shared';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json, openShop } from '../../test/server-shop.ts';
import { STANDBY_NAME, type StreamingStandby, startStreamingStandby } from '../../test/streaming-replica.ts';
import { createTestOrganization, createTestUser, TEST_JWT_SECRET } from '../../test/test-app.ts';
import { waitFor } from '../../test/wait-for.ts';
import { payDevnetInvoice } from '../adapters/lightning/devnet.ts';
import { buildApp } from '../app.ts';
import { loadConfig } from '../config.ts';
import type { App } from '../http/app-type.ts';
import { renderMetrics } from '../metrics.ts';
import { countTransactionsForPayment } from '../modules/transactions/transactions.repo.ts';
import { freePort } from '../ports.ts';
import { type Runtime, startRuntime } from '../runtime.ts';
import { poolUse } from './database.ts';
import { type EmbeddedCluster, startEmbeddedPostgres } from './embedded-postgres.ts';
import { type OpenDatabase, openDatabase } from './open-database.ts';

/**
 * Rayo with DATABASE_READ_URL on a real streaming standby of its PostgreSQL. The standby's replay
 * is paused to show where a read went: a sale recorded meanwhile is on the primary and not on the
 * standby, so a dashboard that still shows nothing read the standby.
 */
describe('DATABASE_READ_URL on a streaming replica', () => {
  let dir = '';
  let primary: EmbeddedCluster | undefined;
  let standby: StreamingStandby | undefined;
  let database: OpenDatabase | undefined;
  let runtime: Runtime | undefined;
  let app: App | undefined;
  let url = '';

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'rayo-replica-'));
    // As root, PostgreSQL runs as the `postgres` user, which must reach the cluster directories inside.
    await chmod(dir, 0o755);
    primary = await startEmbeddedPostgres({ dataDir: path.join(dir, 'primary'), port: await freePort() });
    const adminUrl = primary.url.replace(/\/rayo$/, '/postgres');
    standby = await startStreamingStandby({
      primaryUrl: adminUrl,
      dir: path.join(dir, 'standby'),
      port: await freePort(),
    });
    const config = loadConfig({
      DATABASE_URL: primary.url,
      DATABASE_READ_URL: standby.urlOf('rayo'),
      JWT_SECRET: TEST_JWT_SECRET,
      LOG_LEVEL: 'silent',
      WEB_DIST_DIR: path.join(import.meta.dirname, '../../test/no-web-dist'),
    });
    // Rayo's migrations run on the primary after the standby was made: they reach it by streaming.
    database = await openDatabase(config, () => {});
    runtime = await startRuntime(config, database);
    app = await buildApp(runtime.deps);
    await app.listen({ host: '127.0.0.1', port: 0 });
    url = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
  }, 300_000);

  afterAll(async () => {
    await app?.close();
    await runtime?.stop();
    await database?.close();
    await standby?.stop();
    await primary?.stop();
    await rm(dir, { recursive: true, force: true });
  }, 120_000);

  it('shows a sale on the dashboard once the replica replays it, and sends it no writes', async () => {
    const { db, readDb } = database as OpenDatabase;
    const replica = standby as StreamingStandby;
    expect(poolUse(readDb).role).toBe('replica');
    // The primary sends its WAL to the standby as it is written.
    await waitFor(async () => {
      const { rows } = await sql<{ state: string }>`
        select state from pg_stat_replication where application_name = ${STANDBY_NAME}`.execute(db);
      return rows[0]?.state === 'streaming';
    });
    const [recovery] = await replica.query<{ standby: boolean }>('select pg_is_in_recovery() as standby');
    expect(recovery?.standby).toBe(true);

    // The migrations streamed over, so the shop's organization will too.
    const shop = await openShop(url, db);
    const sums = async () => json<TransactionSums>(await shop.get('/api/dashboard/transactions/sum'));
    await waitFor(async () => (await shop.get('/api/dashboard/transactions/sum')).ok);
    expect((await sums()).receiveMsat).toBe(0);

    await replica.query('select pg_wal_replay_pause()');
    await waitFor(
      async () =>
        (await replica.query<{ state: string }>('select pg_get_wal_replay_pause_state() as state'))[0]?.state ===
        'paused',
    );
    const before = { primary: poolUse(db).queries, replica: poolUse(readDb).queries };
    const invoice: Invoice = await shop.charge();
    await payDevnetInvoice(db, invoice.paymentRequest);
    await waitFor(async () => (await countTransactionsForPayment(db, invoice.paymentHash)) === 1);
    // Charging, paying and recording the sale went to the primary alone.
    expect(poolUse(readDb).queries).toBe(before.replica);
    expect(poolUse(db).queries).toBeGreaterThan(before.primary);

    const lag = /^rayo_db_replica_lag_seconds (\S+)$/m;
    await waitFor(async () => Number(lag.exec((await renderMetrics()).body)?.[1]) > 0);
    // Recorded on the primary, not replayed on the replica: the dashboard, which reads the replica, has none.
    expect((await sums()).receiveMsat).toBe(0);
    const page = await json<TransactionPage>(await shop.get('/api/dashboard/transactions'));
    expect(page.transactions).toHaveLength(0);
    const sale = await db
      .selectFrom('transactions')
      .select('settled_at')
      .where('payment_hash', '=', invoice.paymentHash)
      .executeTakeFirstOrThrow();
    const { timeZone } = await json<DayClose>(await shop.get(`/api/close?day=${dayAt(Date.now(), 'UTC')}`));
    const closeOfSale = async () =>
      json<DayClose>(await shop.get(`/api/close?day=${dayAt(sale.settled_at.getTime(), timeZone)}`));
    expect((await closeOfSale()).totals.count).toBe(0);
    expect(poolUse(readDb).queries).toBeGreaterThan(before.replica);

    await replica.query('select pg_wal_replay_resume()');
    // Within the replica's lag, however long it is here: asked again until it shows.
    const shown = await waitFor(async () => {
      const now = await sums();
      return now.receiveMsat > 0 ? now : undefined;
    }, 60_000);
    expect(shown.receiveMsat).toBe(invoice.amountMsat);
    const listed = await json<TransactionPage>(await shop.get('/api/dashboard/transactions'));
    expect(listed.transactions.map((transaction) => transaction.transactionId)).toEqual([invoice.paymentHash]);
    expect((await closeOfSale()).totals.count).toBe(1);
    const csv = await shop.get('/api/dashboard/transactions/csv');
    expect(csv.status).toBe(200);
    expect(await csv.text()).toContain(invoice.paymentHash);

    // A write sent to the replica would fail: a standby takes none.
    await expect(sql`delete from rates`.execute(readDb)).rejects.toThrow(/read-only transaction/);
    const metrics = (await renderMetrics()).body;
    expect(metrics).toMatch(/^rayo_db_queries_total\{pool="replica"\} [1-9]/m);
    expect(metrics).toMatch(/^rayo_db_queries_total\{pool="primary"\} [1-9]/m);
  }, 300_000);

  it("reads back office's exports from the replica, and the report it pays from on the primary", async () => {
    const { db } = database as OpenDatabase;
    const replica = standby as StreamingStandby;
    const shop = await openShop(url, db);
    const staff = await createTestUser(db, { role: 'back_office', organizationId: null });
    const signedIn = await fetch(`${url}/api/auth/signin`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: staff.email, password: staff.password }),
    });
    const { accessToken } = await json<SignInResponse>(signedIn);
    const get = (path: string) => fetch(`${url}${path}`, { headers: { authorization: `Bearer ${accessToken}` } });
    const ledgerSize = async () => {
      const response = await get(`/api/back-office/organization/${shop.organization.id}/transactions`);
      expect(response.status, await response.clone().text()).toBe(200);
      return Number(response.headers.get('x-total-count'));
    };
    const organizationsInCsv = async () => {
      const text = await (await get('/api/back-office/country/-1/report/csv')).text();
      return Number(/^Organizations,(\d+)\r$/m.exec(text)?.[1]);
    };
    await waitFor(async () => (await ledgerSize()) === 0);

    await replica.query('select pg_wal_replay_pause()');
    await waitFor(
      async () =>
        (await replica.query<{ state: string }>('select pg_get_wal_replay_pause_state() as state'))[0]?.state ===
        'paused',
    );
    const invoice = await shop.charge();
    await payDevnetInvoice(db, invoice.paymentRequest);
    await waitFor(async () => (await countTransactionsForPayment(db, invoice.paymentHash)) === 1);
    await createTestOrganization(db);
    const onScreen = await json<CountryReport>(await get('/api/back-office/country/-1/report'));
    // The report on screen is the primary's; its CSV and the ledger export are the paused replica's.
    expect(await organizationsInCsv()).toBe(onScreen.totals.organizations - 1);
    expect(await ledgerSize()).toBe(0);

    await replica.query('select pg_wal_replay_resume()');
    await waitFor(async () => (await ledgerSize()) === 1, 60_000);
    expect(await organizationsInCsv()).toBe(onScreen.totals.organizations);
  }, 300_000);

  it('counts a replica that does not answer as infinitely behind, and keeps the other metrics', async () => {
    await standby?.stop();
    standby = undefined;
    const metrics = (await renderMetrics()).body;
    expect(metrics).toMatch(/^rayo_db_replica_lag_seconds \+Inf$/m);
    expect(metrics).toMatch(/^rayo_db_pool_connections\{state="total"\} \d+$/m);
  }, 120_000);
});
