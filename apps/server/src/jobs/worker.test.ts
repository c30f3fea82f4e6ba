import type { CreatedWebhookEndpoint, SignInResponse } from '@rayo/shared';
import { sql } from 'kysely';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ServerProcess, startServerProcess } from '../../test/server-process.ts';
import { createTestDatabase, createTestOrganization, createTestUser, type TestDatabase } from '../../test/test-app.ts';
import { waitFor } from '../../test/wait-for.ts';
import { findJobHolder, makeJobDue, makePeriodicPassDue, startReceiver } from '../../test/webhook-receiver.ts';
import { createDatabase, type Db } from '../db/database.ts';
import { enqueueWebhookEvent } from '../modules/webhooks/webhooks.service.ts';
import { startJobWorker } from './worker.ts';

describe('two server processes on one database', () => {
  let database: TestDatabase;
  let db: Db;
  let servers: ServerProcess[] = [];
  let secret = '';
  let receiver: Awaited<ReturnType<typeof startReceiver>>;

  beforeAll(async () => {
    database = await createTestDatabase();
    db = createDatabase(database.url, 2);
    receiver = await startReceiver(() => secret);
    const env = { WEBHOOK_ALLOW_PRIVATE_HOSTS: 'true', SEED_DEMO: 'false' };
    servers = await Promise.all([startServerProcess(database.url, env), startServerProcess(database.url, env)]);
  }, 150_000);
  afterAll(async () => {
    await Promise.all(servers.map((server) => server.stop()));
    await receiver?.stop();
    await db?.destroy();
    await database?.drop();
  });

  let organization: Awaited<ReturnType<typeof createTestOrganization>>;

  it('deliver each of 50 webhooks exactly once', async () => {
    organization = await createTestOrganization(db);
    const user = await createTestUser(db, { role: 'admin', organizationId: organization.id });
    const [first] = servers as [ServerProcess];
    const signIn = await fetch(`${first.url}/api/auth/signin`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: user.email, password: user.password }),
    });
    const { accessToken } = (await signIn.json()) as SignInResponse;
    const created = await fetch(`${first.url}/api/webhooks`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${accessToken}` },
      body: JSON.stringify({ url: receiver.url(), events: ['checkout.paid'] }),
    });
    expect(created.status).toBe(201);
    secret = ((await created.json()) as CreatedWebhookEndpoint).secret;

    for (let i = 0; i < 50; i++) {
      await db.transaction().execute((trx) => enqueueWebhookEvent(trx, organization.id, 'checkout.paid', { n: i }));
    }
    const ids = (
      await db.selectFrom('webhook_deliveries').select('id').where('organization_id', '=', organization.id).execute()
    ).map((row) => row.id);
    expect(ids).toHaveLength(50);

    await waitFor(async () => {
      const left = await db
        .selectFrom('webhook_deliveries')
        .select('id')
        .where('organization_id', '=', organization.id)
        .where('delivered_at', 'is', null)
        .execute();
      return left.length === 0 ? true : undefined;
    }, 60_000);
    // A duplicate would need a job still queued or running; wait until none is left.
    await waitFor(async () => {
      const { rows } = await sql<{ left: string }>`
        select count(*)::text as left from graphile_worker._private_jobs where payload->>'deliveryId' = any(${ids})`.execute(
        db,
      );
      return rows[0]?.left === '0' ? true : undefined;
    }, 60_000);
    const counts = new Map<string, number>();
    for (const arrival of receiver.received) counts.set(arrival.deliveryId, (counts.get(arrival.deliveryId) ?? 0) + 1);
    expect(ids.map((id) => counts.get(id) ?? 0)).toEqual(ids.map(() => 1));
    expect(receiver.received.every((arrival) => arrival.valid)).toBe(true);
    const rows = await db
      .selectFrom('webhook_deliveries')
      .select('attempts')
      .where('organization_id', '=', organization.id)
      .execute();
    expect(rows.every((row) => row.attempts === 1)).toBe(true);
  });

  it('keep one schedule of each payment pass between them', async () => {
    const { rows } = await sql<{ identifier: string; count: string }>`
      select t.identifier, count(*) from graphile_worker._private_jobs j
      join graphile_worker._private_tasks t on t.id = j.task_id
      where j.key = t.identifier group by t.identifier order by t.identifier`.execute(db);
    expect(rows).toEqual(
      [
        'expire-checkouts',
        'expire-invoices',
        'pay-lightning-payouts',
        'pay-onchain-payouts',
        'pay-refunds',
        'queue-close-reports',
        'reconcile-invoices',
        'watch-checkout-payments',
      ].map((identifier) => ({
        identifier,
        count: '1',
      })),
    );
  });

  // Last: it kills one of the two.
  it('hand a delivery held by a killed process to the other at once', async () => {
    const held = receiver.holdNext();
    await db.transaction().execute((trx) => enqueueWebhookEvent(trx, organization.id, 'checkout.paid', { n: 'held' }));
    const deliveryId = await held;
    // The sender waits for an answer; SIGKILL ends it there, its job still locked.
    const holder = await findJobHolder(db, deliveryId);
    const victim = servers.find((server) => server.child.pid === holder?.pid);
    expect(victim).toBeDefined();
    await victim?.kill();
    await waitFor(() => receiver.received.some((arrival) => arrival.deliveryId === deliveryId), 30_000);
    expect(receiver.arrivals.filter((id) => id === deliveryId)).toHaveLength(2);
    expect(receiver.received.filter((arrival) => arrival.deliveryId === deliveryId)).toHaveLength(1);
  }, 60_000);
});

describe('periodic passes on two runners', () => {
  let database: TestDatabase;
  let db: Db;

  beforeAll(async () => {
    database = await createTestDatabase();
    db = createDatabase(database.url, 4);
  });
  afterAll(async () => {
    await db?.destroy();
    await database?.drop();
  });

  it('run once per interval across both, never two at once', async () => {
    const log = pino({ level: 'silent' });
    let runs = 0;
    let running = 0;
    let overlapped = false;
    const pass = {
      task: 'test-pass',
      // An hour: each next interval comes when the test makes the queued run due, not by the clock.
      intervalMs: 3_600_000,
      run: async () => {
        running += 1;
        if (running > 1) overlapped = true;
        runs += 1;
        await new Promise((resolve) => setTimeout(resolve, 50));
        running -= 1;
      },
    };
    // Quiet once no run of the pass is under way or due: what was queued has run, and only the
    // next interval's run waits, so no further run can start until the test makes it due.
    const quietQueue = async () => {
      const { rows } = await sql<{ key: string | null; running: boolean; due: boolean; inAnInterval: boolean }>`
        select j.key, j.locked_at is not null as running, j.run_at <= now() as due,
          j.run_at > now() + ${pass.intervalMs / 2} * interval '1 millisecond' as "inAnInterval"
        from graphile_worker._private_jobs j join graphile_worker._private_tasks t on t.id = j.task_id
        where t.identifier = ${pass.task}`.execute(db);
      const quiet = running === 0 && rows.length > 0 && rows.every((row) => !row.running && !row.due);
      return quiet ? rows : undefined;
    };
    const options = { db, databaseUrl: database.url, log, tasks: {}, periodic: [pass], pollIntervalMs: 50 };
    const stops = await Promise.all([startJobWorker(options), startJobWorker(options)]);
    try {
      for (let interval = 1; interval <= 3; interval++) {
        // Both runners scheduled the first run and every run schedules its successor: one run
        // per interval all the same, and one queued run for the next.
        expect(await waitFor(quietQueue)).toEqual([{ key: pass.task, running: false, due: false, inAnInterval: true }]);
        expect(runs).toBe(interval);
        await makePeriodicPassDue(db, pass.task);
      }
      expect(await waitFor(quietQueue)).toHaveLength(1);
      // A job due before the interval has passed since the last start (one handed back from a
      // runner that died inside the pass) does not run the pass again, and leaves the next run
      // one interval after the last start.
      await makeJobDue(db, pass.task);
      expect(await waitFor(quietQueue)).toEqual([{ key: pass.task, running: false, due: false, inAnInterval: true }]);
      expect(runs).toBe(4);
    } finally {
      await Promise.all(stops.map((stop) => stop()));
    }
    expect(overlapped).toBe(false);
  });
});
