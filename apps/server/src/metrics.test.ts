import type { AddressInfo } from 'node:net';
import type { Invoice } from '@rayo/shared';
import { sql } from 'kysely';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPayoutShop, type PayoutShop, sellAndSettle, startLndPayoutApp } from '../test/payout-shop.ts';
import { openSse } from '../test/sse.ts';
import type { TestApp } from '../test/test-app.ts';
import { waitFor } from '../test/wait-for.ts';
import { startReceiver } from '../test/webhook-receiver.ts';
import { systemContext } from './http/request-context.ts';
import { startMetricsServer } from './metrics.ts';
import { attemptLightningPayout, batchLightningPayouts } from './modules/payouts/payouts.service.ts';
import { enqueueWebhookEvent } from './modules/webhooks/webhooks.service.ts';

const TOKEN = 'metrics-token-of-at-least-32-characters';
const log = pino({ level: 'silent' });

let t: TestApp;
let lnd: Awaited<ReturnType<typeof startLndPayoutApp>>['lnd'];
let lnurl: Awaited<ReturnType<typeof startLndPayoutApp>>['lnurl'];
let close: () => Promise<void>;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let shop: PayoutShop;

beforeAll(async () => {
  ({ t, lnd, lnurl, close } = await startLndPayoutApp({
    METRICS_TOKEN: TOKEN,
    PAYOUT_MIN_SATS: '1000',
    SIGNIN_LIMIT_PER_EMAIL: '1',
    WEBHOOK_ALLOW_PRIVATE_HOSTS: 'true',
  }));
  receiver = await startReceiver(() => 'not checked here');
  shop = await openPayoutShop(t, lnurl.address('metrics'));
});
afterAll(async () => {
  await receiver?.stop();
  await close?.();
});

async function scrape(): Promise<string> {
  const response = await t.app.inject({
    method: 'GET',
    url: '/metrics',
    headers: { authorization: `Bearer ${TOKEN}` },
  });
  expect(response.statusCode, response.body).toBe(200);
  expect(response.headers['content-type']).toContain('text/plain');
  return response.body;
}

/** A sample's value in the exposition text, 0 when it is not there yet. */
function sample(text: string, name: string, labels = ''): number {
  const key = labels ? `${name}{${labels}} ` : `${name} `;
  const line = text.split('\n').find((candidate) => candidate.startsWith(key));
  return line ? Number(line.slice(key.length)) : 0;
}

/** How much a sample moved while `action` ran. */
async function moved(name: string, labels: string, action: () => Promise<unknown>): Promise<number> {
  const before = sample(await scrape(), name, labels);
  await action();
  return sample(await scrape(), name, labels) - before;
}

describe('metrics', () => {
  it('are refused without the token', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(401);
    const wrong = await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: 'Bearer nope' } });
    expect(wrong.json()).toMatchObject({ code: 'Unauthorized' });
  });

  it('count invoices issued and settled by source, and the delay of settlements', async () => {
    const before = await scrape();
    await sellAndSettle(t, shop, '5.00', (hash) => lnd.settle(hash));
    const after = await scrape();
    const delta = (name: string) =>
      sample(after, name, 'source="terminal"') - sample(before, name, 'source="terminal"');
    expect(delta('rayo_invoices_issued_total')).toBe(1);
    expect(delta('rayo_invoices_settled_total')).toBe(1);
    expect(delta('rayo_settlement_delay_seconds_count')).toBe(1);
  });

  it('count payouts sent and payout attempts that failed', async () => {
    await sellAndSettle(t, shop, '5.00', (hash) => lnd.settle(hash));
    const deps = { db: t.db, config: t.config, lightning: t.runtime.deps.lightning };
    const [payout] = await batchLightningPayouts(systemContext('pay-lightning-payouts'), deps);
    if (!payout) throw new Error('no payout was made');
    lnurl.misbehave('error');
    expect(
      await moved('rayo_payout_attempts_failed_total', '', () => attemptLightningPayout(deps, payout.id, log)),
    ).toBe(1);
    lnurl.misbehave('none');
    expect(
      await moved('rayo_payouts_sent_total', 'rail="lightning"', () => attemptLightningPayout(deps, payout.id, log)),
    ).toBe(1);
  });

  it('count webhook deliveries, and failed ones to be retried', async () => {
    const endpoint = await t.app.inject({
      method: 'POST',
      url: '/api/webhooks',
      headers: shop.admin,
      payload: { url: receiver.url(), events: ['checkout.paid'] },
    });
    expect(endpoint.statusCode, endpoint.body).toBe(201);
    const emit = () =>
      t.db
        .transaction()
        .execute((trx) => enqueueWebhookEvent(trx, shop.organization.id, 'checkout.paid', { checkoutId: 'c-1' }));
    const count = async (outcome: string) =>
      sample(await scrape(), 'rayo_webhook_deliveries_total', `outcome="${outcome}"`);

    const delivered = await count('delivered');
    await emit();
    await waitFor(async () => (await count('delivered')) === delivered + 1);
    receiver.answerWith(500);
    const retried = await count('retried');
    await emit();
    await waitFor(async () => (await count('retried')) === retried + 1);
    receiver.answerWith(200);
  });

  it('count rate-limit refusals by rule', async () => {
    const signIn = () =>
      t.app.inject({
        method: 'POST',
        url: '/api/auth/signin',
        payload: { email: 'nobody@metrics.example', password: 'wrong-password-1' },
      });
    const refused = await moved('rayo_rate_limit_refusals_total', 'rule="signin-email-ip"', async () => {
      await signIn();
      expect((await signIn()).statusCode).toBe(429);
    });
    expect(refused).toBe(1);
  });

  it('show the event streams open', async () => {
    const invoice = (
      await t.app.inject({
        method: 'POST',
        url: `/api/bpts/${shop.bpt.id}/invoices`,
        headers: shop.admin,
        payload: { amount: '1.00' },
      })
    ).json<Invoice>();
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = t.app.server.address() as AddressInfo;
    const open = async () => sample(await scrape(), 'rayo_event_streams_open');
    const before = await open();
    const stream = await openSse(`http://127.0.0.1:${port}/api/invoices/${invoice.id}/events`);
    await waitFor(async () => (await open()) === before + 1);
    stream.close();
    await waitFor(async () => (await open()) === before);
  });

  it('show the job queue by task, and the PostgreSQL pool', async () => {
    // A task no worker of this process runs stays queued, as a job would behind stuck workers.
    await sql`select graphile_worker.add_job('metrics-test-task', run_at := now() - interval '90 seconds')`.execute(
      t.db,
    );
    const text = await scrape();
    expect(sample(text, 'rayo_job_queue_depth', 'task="metrics-test-task"')).toBe(1);
    expect(sample(text, 'rayo_job_queue_oldest_seconds', 'task="metrics-test-task"')).toBeGreaterThanOrEqual(90);
    expect(sample(text, 'rayo_db_pool_connections', 'state="total"')).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'rayo_db_pool_max_connections')).toBe(4);
  });

  it('are served on a port of their own without a token', async () => {
    const server = await startMetricsServer('127.0.0.1', 0);
    try {
      const response = await fetch(`http://127.0.0.1:${server.port}/metrics`);
      expect(response.status).toBe(200);
      expect(await response.text()).toContain('rayo_invoices_issued_total');
      expect((await fetch(`http://127.0.0.1:${server.port}/`)).status).toBe(404);
    } finally {
      await server.stop();
    }
  });
});
