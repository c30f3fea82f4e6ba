import { timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import { AppError } from '@rayo/shared';
import client from 'prom-client';
import { type Db, poolOf, poolUse, type ReadDb, readReplayLag } from './db/database.ts';
import type { App } from './http/app-type.ts';
import { readJobQueue } from './jobs/job-queue.repo.ts';

/**
 * What Prometheus scrapes from this process. Counters count what this process did; across several
 * server processes Prometheus adds them up (`sum by (source)`). The queue and pool gauges are read
 * when scraped.
 */
export const metricsRegistry = new client.Registry();
client.collectDefaultMetrics({ register: metricsRegistry });

export const invoicesIssued = new client.Counter({
  name: 'rayo_invoices_issued_total',
  help: 'Invoices issued, by what sells them (terminal, link, checkout, donation, …)',
  labelNames: ['source'] as const,
  registers: [metricsRegistry],
});

export const invoicesSettled = new client.Counter({
  name: 'rayo_invoices_settled_total',
  help: 'Invoices whose payment this process recorded in the ledger, by what sold them',
  labelNames: ['source'] as const,
  registers: [metricsRegistry],
});

export const settlementDelay = new client.Histogram({
  name: 'rayo_settlement_delay_seconds',
  help: 'From the node settling an invoice to its sale being in the ledger',
  labelNames: ['source'] as const,
  buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300],
  registers: [metricsRegistry],
});

export const payoutsSent = new client.Counter({
  name: 'rayo_payouts_sent_total',
  help: 'Payouts paid, by rail',
  labelNames: ['rail'] as const,
  registers: [metricsRegistry],
});

export const payoutAttemptsFailed = new client.Counter({
  name: 'rayo_payout_attempts_failed_total',
  help: 'Payout attempts that failed and will be retried, by rail',
  labelNames: ['rail'] as const,
  registers: [metricsRegistry],
});

export const webhookDeliveries = new client.Counter({
  name: 'rayo_webhook_deliveries_total',
  help: 'Webhook delivery attempts, by outcome: delivered, retried (will be tried again) or failed (the last attempt)',
  labelNames: ['outcome'] as const,
  registers: [metricsRegistry],
});

export const eventStreamsOpen = new client.Gauge({
  name: 'rayo_event_streams_open',
  help: 'Server-Sent Event streams open on this process (waiting terminals and checkout pages)',
  registers: [metricsRegistry],
});

export const rateLimitRefusals = new client.Counter({
  name: 'rayo_rate_limit_refusals_total',
  help: 'Requests refused with 429 by a rate limit, by rule',
  labelNames: ['rule'] as const,
  registers: [metricsRegistry],
});

const jobQueueDepth = new client.Gauge({
  name: 'rayo_job_queue_depth',
  help: 'Background jobs due now and not yet done, by task',
  labelNames: ['task'] as const,
  registers: [metricsRegistry],
});

const jobQueueAge = new client.Gauge({
  name: 'rayo_job_queue_oldest_seconds',
  help: 'How long the oldest job due has waited, by task',
  labelNames: ['task'] as const,
  registers: [metricsRegistry],
});

const poolConnections = new client.Gauge({
  name: 'rayo_db_pool_connections',
  help: "This process's PostgreSQL pool: connections open, idle, and queries waiting for one",
  labelNames: ['state'] as const,
  registers: [metricsRegistry],
});

const poolMax = new client.Gauge({
  name: 'rayo_db_pool_max_connections',
  help: "The most connections this process's PostgreSQL pool opens",
  registers: [metricsRegistry],
});

const replicaLag = new client.Gauge({
  name: 'rayo_db_replica_lag_seconds',
  help: 'How far the replica of DATABASE_READ_URL is behind the primary; +Inf while it does not answer',
  registers: [metricsRegistry],
});

/** The pools the scrape-time metrics read; the last runtime started in this process. */
let observed: { db: Db; readDb: ReadDb } | undefined;

new client.Counter({
  name: 'rayo_db_queries_total',
  help: 'Statements this process sent to PostgreSQL, by pool: primary, or replica (DATABASE_READ_URL)',
  labelNames: ['pool'] as const,
  registers: [metricsRegistry],
  collect() {
    if (!observed) return;
    this.reset();
    const pools = new Set<ReadDb>([observed.db, observed.readDb]);
    for (const db of pools) {
      const use = poolUse(db);
      this.inc({ pool: use.role }, use.queries);
    }
  },
});

/** Reads the job queue and the pools when scraped: the queue from `db`, the statements sent to both. */
export function observeDatabase(db: Db, readDb: ReadDb = db): void {
  observed = { db, readDb };
}

async function readDatabaseGauges(): Promise<void> {
  if (!observed) return;
  const pool = poolOf(observed.db);
  poolConnections.set({ state: 'total' }, pool.totalCount);
  poolConnections.set({ state: 'idle' }, pool.idleCount);
  poolConnections.set({ state: 'waiting' }, pool.waitingCount);
  poolMax.set(pool.options.max ?? 10);
  jobQueueDepth.reset();
  jobQueueAge.reset();
  for (const row of await readJobQueue(observed.db)) {
    jobQueueDepth.set({ task: row.task }, row.depth);
    jobQueueAge.set({ task: row.task }, row.oldestSeconds);
  }
  replicaLag.reset();
  if (poolUse(observed.readDb).role === 'replica') {
    // A replica that does not answer must not cost the scrape every other metric.
    replicaLag.set(await readReplayLag(observed.readDb).catch(() => Number.POSITIVE_INFINITY));
  }
}

/** The Prometheus text exposition of every metric above. */
export async function renderMetrics(): Promise<{ contentType: string; body: string }> {
  await readDatabaseGauges();
  return { contentType: metricsRegistry.contentType, body: await metricsRegistry.metrics() };
}

function tokenMatches(header: string | undefined, token: string): boolean {
  const given = Buffer.from(header?.replace(/^Bearer /, '') ?? '');
  const expected = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** `GET /metrics` on the application's port, for a scraper that sends `Authorization: Bearer METRICS_TOKEN`. */
export function registerMetricsRoute(app: App, token: string): void {
  app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
    if (!tokenMatches(request.headers.authorization, token)) {
      throw new AppError('Unauthorized', 'Send the metrics token as Authorization: Bearer METRICS_TOKEN');
    }
    const { contentType, body } = await renderMetrics();
    return reply.header('content-type', contentType).header('cache-control', 'no-store').send(body);
  });
}

/**
 * `GET /metrics` on a port of its own (`METRICS_PORT`), which only the scraper reaches: a firewall
 * or the loopback address keeps it private, so it asks for no token.
 */
export async function startMetricsServer(
  host: string,
  port: number,
): Promise<{ port: number; stop: () => Promise<void> }> {
  const server = http.createServer((request, response) => {
    if (request.method !== 'GET' || request.url?.split('?')[0] !== '/metrics') {
      response.writeHead(404).end();
      return;
    }
    renderMetrics().then(
      ({ contentType, body }) => response.writeHead(200, { 'content-type': contentType }).end(body),
      (error: unknown) => response.writeHead(500).end(String(error)),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, resolve);
  });
  const address = server.address();
  return {
    port: typeof address === 'object' && address ? address.port : port,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
