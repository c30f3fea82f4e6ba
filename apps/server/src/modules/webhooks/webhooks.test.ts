import type {
  CreatedWebhookEndpoint,
  ErrorResponse,
  MfaEnrollment,
  WebhookDelivery,
  WebhookDeliveryPage,
  WebhookEndpoint,
} from '@rayo/shared';
import { sql } from 'kysely';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bearer,
  createTestAccount,
  createTestApp,
  createTestOrganization,
  createTestUser,
  openTestShop,
  signIn,
  type TestApp,
} from '../../../test/test-app.ts';
import { waitFor } from '../../../test/wait-for.ts';
import { makeJobDue, startReceiver } from '../../../test/webhook-receiver.ts';
import type { Db } from '../../db/database.ts';
import { listAuditEntries } from '../audit/audit.repo.ts';
import { enqueueWebhookEvent } from './webhooks.service.ts';

async function deliveryRow(db: Db, id: string) {
  return db.selectFrom('webhook_deliveries').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

async function pendingJob(db: Db, deliveryId: string) {
  const { rows } = await sql<{ attempts: number; run_at: Date; locked_at: Date | null }>`
    select attempts, run_at, locked_at from graphile_worker._private_jobs where key = ${deliveryId}`.execute(db);
  return rows[0];
}

/**
 * The delivery's job once it waits in the queue again. The task writes the delivery's row before
 * it returns, and only then does graphile-worker release the job, rescheduled after a failure.
 */
function queuedJob(db: Db, deliveryId: string) {
  return waitFor(async () => {
    const job = await pendingJob(db, deliveryId);
    return job?.locked_at === null ? job : undefined;
  });
}

let t: TestApp;
let secret = '';
let receiver: Awaited<ReturnType<typeof startReceiver>>;

beforeAll(async () => {
  t = await createTestApp(
    { WEBHOOK_ALLOW_PRIVATE_HOSTS: 'true', SIGNIN_LIMIT_PER_EMAIL: '1000', SIGNIN_LIMIT_PER_IP: '1000' },
    { jobs: true, jobPollIntervalMs: 100 },
  );
  receiver = await startReceiver(() => secret);
});
afterAll(async () => {
  await receiver?.stop();
  await t?.close();
});

async function addEndpoint(headers: Record<string, string>, url: string, events = ['checkout.paid']) {
  const response = await t.app.inject({ method: 'POST', url: '/api/webhooks', headers, payload: { url, events } });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<CreatedWebhookEndpoint>();
}

async function emit(organizationId: string, payload: Record<string, unknown> = { checkoutId: 'c-1' }) {
  await t.db.transaction().execute((trx) => enqueueWebhookEvent(trx, organizationId, 'checkout.paid', payload));
  const row = await t.db
    .selectFrom('webhook_deliveries')
    .select('id')
    .where('organization_id', '=', organizationId)
    .orderBy('created_at', 'desc')
    .executeTakeFirstOrThrow();
  return row.id;
}

describe('webhook endpoints', () => {
  it('shows the signing secret once, lists endpoints without it, and audits changes', async () => {
    const { organization, admin } = await openTestShop(t);
    const created = await addEndpoint(admin, 'https://shop.example/hooks', ['checkout.paid', 'checkout.expired']);
    expect(created.secret).toMatch(/^whsec_[\w-]{32}$/);
    expect(created).toMatchObject({ url: 'https://shop.example/hooks', events: ['checkout.paid', 'checkout.expired'] });
    const stored = await t.db
      .selectFrom('webhook_endpoints')
      .select('secret_sealed')
      .where('id', '=', created.id)
      .executeTakeFirstOrThrow();
    expect(stored.secret_sealed).not.toContain(created.secret);

    const list = await t.app.inject({ method: 'GET', url: '/api/webhooks', headers: admin });
    expect(list.json<WebhookEndpoint[]>()).toEqual([
      { id: created.id, url: created.url, events: created.events, active: true, createdAt: created.createdAt },
    ]);
    expect(list.body).not.toContain(created.secret);

    const deleted = await t.app.inject({ method: 'DELETE', url: `/api/webhooks/${created.id}`, headers: admin });
    expect(deleted.statusCode).toBe(204);
    expect((await t.app.inject({ method: 'GET', url: '/api/webhooks', headers: admin })).json()).toEqual([]);
    const again = await t.app.inject({ method: 'DELETE', url: `/api/webhooks/${created.id}`, headers: admin });
    expect(again.statusCode).toBe(404);

    const audit = await listAuditEntries(t.db, { organizationId: organization.id });
    const actions = audit.map((entry) => entry.action);
    expect(actions).toEqual(
      expect.arrayContaining(['settings.webhook_endpoint_created', 'settings.webhook_endpoint_deleted']),
    );
    expect(JSON.stringify(audit)).not.toContain(created.secret);
  });

  it('refuses a URL that is not http(s) or not a URL, with a clear 400', async () => {
    const { admin } = await openTestShop(t);
    for (const url of ['ftp://shop.example/hooks', 'not a url', 'https://user:pw@shop.example/hooks']) {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/webhooks',
        headers: admin,
        payload: { url, events: ['checkout.paid'] },
      });
      expect([response.statusCode, response.json<ErrorResponse>().code], url).toEqual([400, 'InvalidWebhookUrl']);
    }
    const noEvents = await t.app.inject({
      method: 'POST',
      url: '/api/webhooks',
      headers: admin,
      payload: { url: 'https://shop.example/hooks', events: [] },
    });
    expect(noEvents.statusCode).toBe(400);
  });

  it('lets managers read endpoints and the log, and nothing more', async () => {
    const { organization, admin } = await openTestShop(t);
    const account = await createTestAccount(t.db, organization.id, 'Main');
    const endpoint = await addEndpoint(admin, 'https://shop.example/hooks');
    const user = await createTestUser(t.db, {
      role: 'manager',
      organizationId: organization.id,
      accountIds: [account.id],
    });
    const manager = bearer((await signIn(t.app, user.email, user.password)).accessToken);
    expect((await t.app.inject({ method: 'GET', url: '/api/webhooks', headers: manager })).statusCode).toBe(200);
    const log = await t.app.inject({ method: 'GET', url: '/api/webhooks/deliveries', headers: manager });
    expect(log.statusCode).toBe(200);
    const writes = [
      {
        method: 'POST' as const,
        url: '/api/webhooks',
        payload: { url: 'https://x.example', events: ['checkout.paid'] },
      },
      { method: 'DELETE' as const, url: `/api/webhooks/${endpoint.id}` },
      { method: 'POST' as const, url: `/api/webhooks/${endpoint.id}/test` },
    ];
    for (const write of writes) {
      expect((await t.app.inject({ ...write, headers: manager })).statusCode, write.url).toBe(403);
    }
  });

  it('needs a code in the mfa-code header to add one when the admin has MFA on', async () => {
    const { admin } = await openTestShop(t);
    const enable = await t.app.inject({ method: 'POST', url: '/api/settings/mfa/enable', headers: admin });
    const totp = new TOTP({ secret: Secret.fromBase32(enable.json<MfaEnrollment>().secret) });
    const validate = await t.app.inject({
      method: 'POST',
      url: '/api/settings/mfa/validate',
      headers: admin,
      payload: { code: totp.generate() },
    });
    expect(validate.statusCode, validate.body).toBe(204);
    const add = (headers: Record<string, string>) =>
      t.app.inject({
        method: 'POST',
        url: '/api/webhooks',
        headers,
        payload: { url: 'https://shop.example/hooks', events: ['checkout.paid'] },
      });
    const without = await add(admin);
    expect([without.statusCode, without.json<ErrorResponse>().code]).toEqual([400, 'MissingMfaCode']);
    // The URL is checked before the code: a plain-http URL is refused without one, and a right
    // code sent with it is not spent.
    const plainHttp = (headers: Record<string, string>) =>
      t.app.inject({
        method: 'POST',
        url: '/api/webhooks',
        headers,
        payload: { url: 'http://shop.example/hooks', events: ['checkout.paid'] },
      });
    const refused = await plainHttp(admin);
    expect([refused.statusCode, refused.json<ErrorResponse>()]).toEqual([
      400,
      { code: 'InvalidWebhookUrl', message: 'The webhook URL must use https' },
    ]);
    const unspent = totp.generate({ timestamp: Date.now() + 30_000 });
    expect((await plainHttp({ ...admin, 'mfa-code': unspent })).json<ErrorResponse>().code).toBe('InvalidWebhookUrl');
    expect((await add({ ...admin, 'mfa-code': '000000' })).json<ErrorResponse>().code).toBe('WrongMfaCode');
    // The validate used the current step's code; the next step's was not spent on the refused URL.
    expect((await add({ ...admin, 'mfa-code': unspent })).statusCode).toBe(201);
  });

  it("answers 404 for another organization's endpoint", async () => {
    const a = await openTestShop(t);
    const b = await openTestShop(t);
    const endpoint = await addEndpoint(a.admin, 'https://shop.example/hooks');
    const response = await t.app.inject({ method: 'DELETE', url: `/api/webhooks/${endpoint.id}`, headers: b.admin });
    expect(response.statusCode).toBe(404);
  });
});

describe('webhook delivery', () => {
  it('POSTs each event once, signed, with its event and delivery headers', async () => {
    const { organization, admin } = await openTestShop(t);
    const endpoint = await addEndpoint(admin, receiver.url());
    secret = endpoint.secret;
    const before = receiver.received.length;
    const id = await emit(organization.id, { checkoutId: 'c-1', amountSats: 2100 });

    const got = await waitFor(() => receiver.received.find((r) => r.deliveryId === id));
    expect(got).toMatchObject({ event: 'checkout.paid', valid: true });
    expect(got.parsed).toMatchObject({ id, type: 'checkout.paid', data: { checkoutId: 'c-1', amountSats: 2100 } });
    const row = await waitFor(async () => {
      const r = await deliveryRow(t.db, id);
      return r.delivered_at ? r : undefined;
    });
    expect(row).toMatchObject({ attempts: 1, last_status: 200, last_error: null, next_attempt_at: null });
    // Its job leaves the queue once the task has returned: nothing is left to send it again, so
    // what arrived is all that ever will.
    await waitFor(async () => ((await pendingJob(t.db, id)) === undefined ? true : undefined));
    expect(receiver.received.slice(before).filter((r) => r.deliveryId === id)).toHaveLength(1);
  });

  it('retries with backoff while the receiver is down, and delivers exactly once when it is back', async () => {
    const { organization, admin } = await openTestShop(t);
    const endpoint = await addEndpoint(admin, receiver.url());
    secret = endpoint.secret;
    receiver.answerWith(500);
    const id = await emit(organization.id, { checkoutId: 'c-down' });

    // First attempt: the receiver answers 500; the retry waits out graphile-worker's backoff.
    const first = await waitFor(async () => {
      const r = await deliveryRow(t.db, id);
      return r.attempts === 1 ? r : undefined;
    });
    expect(first).toMatchObject({ last_status: 500, last_error: 'The endpoint answered HTTP 500', delivered_at: null });
    // graphile-worker waits e^attempts seconds: the retry is due at least 2.7 s after the event.
    // Compared with the event's time, not the clock now, which a loaded machine may have moved past it.
    const backoffFloor = first.created_at.getTime() + 2_000;
    expect(first.next_attempt_at?.getTime()).toBeGreaterThan(backoffFloor);
    const job = await queuedJob(t.db, id);
    expect(job.run_at.getTime()).toBeGreaterThan(backoffFloor);

    // Then it is not there at all: the connection is refused.
    await receiver.stop();
    await makeJobDue(t.db, id);
    const second = await waitFor(async () => {
      const r = await deliveryRow(t.db, id);
      return r.attempts === 2 ? r : undefined;
    });
    expect(second.last_status).toBeNull();
    expect(second.last_error).toBeTruthy();
    expect(second.delivered_at).toBeNull();

    // Back up: the next retry delivers, once.
    receiver.answerWith(200);
    await receiver.start();
    await queuedJob(t.db, id);
    await makeJobDue(t.db, id);
    const delivered = await waitFor(async () => {
      const r = await deliveryRow(t.db, id);
      return r.delivered_at ? r : undefined;
    });
    expect(delivered).toMatchObject({ attempts: 3, last_status: 200, last_error: null });
    // Once its job has left the queue nothing can send it again.
    await waitFor(async () => ((await pendingJob(t.db, id)) === undefined ? true : undefined));
    const arrivals = receiver.received.filter((r) => r.deliveryId === id);
    expect(arrivals).toHaveLength(1);
    expect(arrivals[0]?.valid).toBe(true);
  });

  it('redelivers on request, with the same id and body', async () => {
    const { organization, admin } = await openTestShop(t);
    const endpoint = await addEndpoint(admin, receiver.url());
    secret = endpoint.secret;
    const id = await emit(organization.id, { checkoutId: 'c-again' });
    await waitFor(() => receiver.received.find((r) => r.deliveryId === id));

    const response = await t.app.inject({
      method: 'POST',
      url: `/api/webhooks/deliveries/${id}/redeliver`,
      headers: admin,
    });
    expect(response.statusCode, response.body).toBe(202);
    expect(response.json<WebhookDelivery>()).toMatchObject({ id, type: 'checkout.paid' });
    const arrivals = await waitFor(() => {
      const all = receiver.received.filter((r) => r.deliveryId === id);
      return all.length === 2 ? all : undefined;
    });
    expect(arrivals[1]?.body).toBe(arrivals[0]?.body);
    expect(arrivals.every((a) => a.valid)).toBe(true);
    const row = await waitFor(async () => {
      const r = await deliveryRow(t.db, id);
      return r.attempts === 2 ? r : undefined;
    });
    expect(row.last_status).toBe(200);

    const other = await openTestShop(t);
    const foreign = await t.app.inject({
      method: 'POST',
      url: `/api/webhooks/deliveries/${id}/redeliver`,
      headers: other.admin,
    });
    expect(foreign.statusCode).toBe(404);
  });

  it('sends a test event from the endpoint list and shows it in the delivery log', async () => {
    const { admin } = await openTestShop(t);
    const endpoint = await addEndpoint(admin, receiver.url());
    secret = endpoint.secret;
    const response = await t.app.inject({ method: 'POST', url: `/api/webhooks/${endpoint.id}/test`, headers: admin });
    expect(response.statusCode, response.body).toBe(202);
    const { id } = response.json<WebhookDelivery>();
    const got = await waitFor(() => receiver.received.find((r) => r.deliveryId === id));
    expect(got).toMatchObject({ event: 'webhook.test', valid: true });

    const log = await waitFor(async () => {
      const page = (
        await t.app.inject({ method: 'GET', url: '/api/webhooks/deliveries?page=1&limit=10', headers: admin })
      ).json<WebhookDeliveryPage>();
      return page.deliveries[0]?.deliveredAt ? page : undefined;
    });
    expect(log.total).toBe(1);
    expect(log.deliveries[0]).toMatchObject({
      id,
      endpointId: endpoint.id,
      url: endpoint.url,
      type: 'webhook.test',
      attempts: 1,
      lastStatus: 200,
      lastError: null,
      nextAttemptAt: null,
    });
  });

  it('sends nothing to an endpoint deleted before its delivery ran', async () => {
    const { organization, admin } = await openTestShop(t);
    const endpoint = await addEndpoint(admin, receiver.url());
    receiver.answerWith(503);
    const id = await emit(organization.id);
    await waitFor(async () => ((await deliveryRow(t.db, id)).attempts === 1 ? true : undefined));
    receiver.answerWith(200);
    await t.app.inject({ method: 'DELETE', url: `/api/webhooks/${endpoint.id}`, headers: admin });
    await queuedJob(t.db, id);
    await makeJobDue(t.db, id);
    await waitFor(async () => ((await pendingJob(t.db, id)) === undefined ? true : undefined));
    expect(receiver.received.filter((r) => r.deliveryId === id)).toHaveLength(0);
  });
});

describe('webhook SSRF guard', () => {
  let strict: TestApp;
  beforeAll(async () => {
    strict = await createTestApp({}, { jobs: true, jobPollIntervalMs: 100 });
  });
  afterAll(() => strict?.close());

  it('refuses plain http and private or loopback addresses unless WEBHOOK_ALLOW_PRIVATE_HOSTS is on', async () => {
    const organization = await createTestOrganization(strict.db);
    const user = await createTestUser(strict.db, { role: 'admin', organizationId: organization.id });
    const admin = bearer((await signIn(strict.app, user.email, user.password)).accessToken);
    for (const url of [
      receiver.url(),
      'https://127.0.0.1/hooks',
      'https://10.1.2.3/hooks',
      'https://[::1]/hooks',
      'https://169.254.169.254/latest',
      'https://localhost/hooks',
      'http://shop.example/hooks',
    ]) {
      const response = await strict.app.inject({
        method: 'POST',
        url: '/api/webhooks',
        headers: admin,
        payload: { url, events: ['checkout.paid'] },
      });
      expect([response.statusCode, response.json<ErrorResponse>().code], url).toEqual([400, 'InvalidWebhookUrl']);
    }
  });

  it('does not send to an endpoint whose address is private, and logs why', async () => {
    const organization = await createTestOrganization(strict.db);
    // Stored before the rule, or by hand: the delivery checks again.
    const endpoint = await strict.db
      .insertInto('webhook_endpoints')
      .values({
        organization_id: organization.id,
        url: receiver.url().replace('http:', 'https:'),
        secret_sealed: strict.runtime.deps.mfaCipher.seal('whsec_x', 'unused'),
        events: ['checkout.paid'],
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const before = receiver.received.length;
    await strict.db.transaction().execute((trx) => enqueueWebhookEvent(trx, organization.id, 'checkout.paid', {}));
    const row = await waitFor(async () => {
      const r = await strict.db
        .selectFrom('webhook_deliveries')
        .selectAll()
        .where('endpoint_id', '=', endpoint.id)
        .executeTakeFirst();
      return r && r.attempts > 0 ? r : undefined;
    });
    expect(row).toMatchObject({ delivered_at: null, last_status: null, next_attempt_at: null });
    expect(row.last_error).toBe('The webhook URL must point to a public address');
    expect(receiver.received.length).toBe(before);
  });
});
