/**
 * Payment benchmarks, each beside its floor measured in the same run on the same machine:
 * - invoice creation over HTTP on the path production takes (the figure of record): Rayo prices
 *   the charge and asks lnd for the invoice over HTTPS (`POST /v1/invoices`, the lnd stand-in of
 *   the tests, in a process of its own), then stores it; beside an empty Fastify route, the same
 *   Rayo process answering `GET /api/health`, and PostgreSQL's single-row insert-and-commit rate;
 * - invoice creation at a fixed 200 a second (open loop), the rate a busy shop's tills might reach;
 * - the SQL statements each invoice costs, from pg_stat_statements;
 * - CPU per 1,000 invoices of Rayo, PostgreSQL, the node and the load generator, and Rayo's memory;
 * - settle-to-SSE latency: from the node's payment to the `settled` event on a watcher.
 * Everything runs on loopback against a throwaway embedded PostgreSQL.
 *
 *   npm run bench                              (lnd stand-in; writes the tables to stdout)
 *   BENCH_BACKEND=devnet npm run bench         (the devnet node signs each invoice instead)
 *   BENCH_CPU_PROF=/tmp/prof npm run bench     (also writes the Rayo process's V8 CPU profile there)
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Bpt, Invoice } from '@rayo/shared';
import Fastify from 'fastify';
import pg from 'pg';
import { startEmbeddedPostgres } from '../apps/server/src/db/embedded-postgres.ts';
import { formatResult, runFixedRate, runLoad, summarize } from './load.ts';
import {
  agent,
  CONCURRENCY,
  call,
  cpuMs,
  type LndStandIn,
  processCpuMs,
  processMemoryMiB,
  seedShop,
  startLndStandIn,
} from './measure.ts';
import { startRayo, stopRayo } from './rayo-process.ts';

const INVOICES = Number(process.env.BENCH_INVOICES ?? 3000);
const SETTLEMENTS = Number(process.env.BENCH_SETTLEMENTS ?? 200);
const FIXED_RATE = Number(process.env.BENCH_RATE ?? 200);
const FIXED_RATE_SECONDS = Number(process.env.BENCH_RATE_SECONDS ?? 15);
const CPU_PROFILE_DIR = process.env.BENCH_CPU_PROF;
const BACKEND = process.env.BENCH_BACKEND ?? 'lnd';
if (BACKEND !== 'lnd' && BACKEND !== 'devnet') throw new Error('BENCH_BACKEND is lnd or devnet');

async function floorInsertCommit(url: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query('create table if not exists bench_floor (id bigserial primary key, note text not null)');
  await client.end();
  const pool = new pg.Pool({ connectionString: url, max: CONCURRENCY });
  const result = await runLoad(INVOICES, CONCURRENCY, async () => {
    await pool.query('insert into bench_floor (note) values ($1)', ['floor']);
  });
  await pool.end();
  return result;
}

async function floorEmptyRoute() {
  const app = Fastify({ logger: false });
  app.get('/', async () => ({}));
  const url = await app.listen({ host: '127.0.0.1', port: 0 });
  const result = await runLoad(INVOICES, CONCURRENCY, () => call(url, 'GET'));
  await app.close();
  return result;
}

/** The statements PostgreSQL ran while `run` went, most frequent first, with how many per `per`. */
async function countStatements<T>(url: string, per: number, run: () => Promise<T>) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('create extension if not exists pg_stat_statements');
    await client.query('select pg_stat_statements_reset()');
    const result = await run();
    const { rows } = await client.query<{ query: string; calls: string }>(
      `select query, calls from pg_stat_statements
        where query not like '%pg_stat_statements%' order by calls desc, query`,
    );
    const statements = rows.map((row) => ({ perCall: Number(row.calls) / per, query: row.query }));
    return { result, statements, total: statements.reduce((sum, row) => sum + row.perCall, 0) };
  } finally {
    await client.end();
  }
}

/** Time from the payment (`pay`) to the `settled` event arriving at an SSE watcher. */
async function settleToSse(url: string, shop: { token: string; bpt: Bpt }, pay: (invoice: Invoice) => Promise<void>) {
  const latencies: number[] = [];
  const begin = performance.now();
  for (let i = 0; i < SETTLEMENTS; i += 1) {
    const invoice = await call<Invoice>(
      `${url}/api/bpts/${shop.bpt.id}/invoices`,
      'POST',
      { amount: '1.00' },
      shop.token,
    );
    const controller = new AbortController();
    const response = await fetch(`${url}/api/invoices/${invoice.id}/events`, { signal: controller.signal });
    const reader = (response.body as ReadableStream<Uint8Array>).pipeThrough(new TextDecoderStream()).getReader();
    let text = '';
    while (!text.includes('"pending"')) text += (await reader.read()).value ?? '';
    const t0 = performance.now();
    await pay(invoice);
    while (!text.includes('"settled"')) text += (await reader.read()).value ?? '';
    latencies.push(performance.now() - t0);
    controller.abort();
  }
  return summarize(latencies, (performance.now() - begin) / 1000);
}

const loadAtStart = os.loadavg();
const dataDir = await mkdtemp(path.join(os.tmpdir(), 'rayo-bench-'));
const { chmod } = await import('node:fs/promises');
await chmod(dataDir, 0o755);
const cluster = await startEmbeddedPostgres({
  dataDir,
  port: 15_000 + Math.floor(Math.random() * 1000),
  persistent: false,
  settings: { shared_preload_libraries: 'pg_stat_statements' },
});
let node: LndStandIn | undefined;
try {
  const insertFloor = await floorInsertCommit(cluster.url);
  const routeFloor = await floorEmptyRoute();
  if (BACKEND === 'lnd') node = await startLndStandIn(dataDir);
  const rayo = await startRayo({
    DATABASE_URL: cluster.url,
    DATA_DIR: dataDir,
    ...node?.env,
    ...(CPU_PROFILE_DIR && { NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${CPU_PROFILE_DIR}` }),
  });
  try {
    const shop = await seedShop(rayo.url, cluster.url);
    const pid = rayo.child.pid as number;
    // Warm up JIT and pools before measuring.
    await runLoad(200, CONCURRENCY, () => call(`${rayo.url}/api/health`, 'GET'));
    await runLoad(200, CONCURRENCY, () =>
      call(`${rayo.url}/api/bpts/${shop.bpt.id}/invoices`, 'POST', { amount: '1.00' }, shop.token),
    );
    const healthCpuBefore = await processCpuMs(pid);
    const healthFloor = await runLoad(INVOICES, CONCURRENCY, () => call(`${rayo.url}/api/health`, 'GET'));
    const healthCpu = (await processCpuMs(pid)) - healthCpuBefore;
    const createInvoice = () =>
      call<void>(`${rayo.url}/api/bpts/${shop.bpt.id}/invoices`, 'POST', { amount: '4.20' }, shop.token);
    const clusterDir = path.join(dataDir, 'postgres');
    const cpuBefore = await cpuMs(pid, clusterDir);
    const nodeCpuBefore = node ? await processCpuMs(node.pid) : 0;
    const benchCpuBefore = process.cpuUsage();
    const counted = await countStatements(cluster.url, INVOICES, () => runLoad(INVOICES, CONCURRENCY, createInvoice));
    const benchCpu = process.cpuUsage(benchCpuBefore);
    const cpuAfter = await cpuMs(pid, clusterDir);
    const nodeCpu = node ? (await processCpuMs(node.pid)) - nodeCpuBefore : undefined;
    const memoryAfterClosedLoop = await processMemoryMiB(pid);
    const invoices = counted.result;
    const fixedRate = await runFixedRate(FIXED_RATE, FIXED_RATE_SECONDS, createInvoice);
    const lnd = node;
    const settle = await settleToSse(rayo.url, shop, async (invoice) => {
      if (lnd) lnd.settle(invoice.paymentHash);
      else await call(`${rayo.url}/api/devnet/pay`, 'POST', { paymentRequest: invoice.paymentRequest });
    });
    const memoryAtEnd = await processMemoryMiB(pid);
    const load = (values: number[]) => values.map((value) => value.toFixed(2)).join(' ');
    console.log(
      `\nMachine: ${os.cpus().length} × ${os.cpus()[0]?.model}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}, ${new Date().toISOString().slice(0, 16)} UTC`,
    );
    console.log(`Load average (1, 5, 15 min): ${load(loadAtStart)} at the start, ${load(os.loadavg())} at the end.`);
    console.log(`Backend ${BACKEND}, concurrency ${CONCURRENCY}, loopback.\n`);
    const invoiceRoute = BACKEND === 'lnd' ? 'lnd stand-in over HTTPS' : 'devnet node signs';
    console.log('| measurement | requests | per second | p50 ms | p95 ms | p99 ms |');
    console.log('|---|---|---|---|---|---|');
    console.log(formatResult('floor: PostgreSQL single-row insert + commit', insertFloor));
    console.log(formatResult('floor: empty Fastify route', routeFloor));
    console.log(formatResult('floor: GET /api/health on the same Rayo', healthFloor));
    console.log(formatResult(`POST /api/bpts/:id/invoices (${invoiceRoute})`, invoices));
    console.log(
      formatResult(
        `same, open loop at ${FIXED_RATE}/s for ${FIXED_RATE_SECONDS} s (${fixedRate.errors} errors)`,
        fixedRate,
      ),
    );
    console.log(formatResult('settle → SSE `settled` (sequential)', settle));
    console.log(`\nSQL statements per invoice (closed loop; background jobs included): ${counted.total.toFixed(2)}\n`);
    if (cpuBefore && cpuAfter) {
      // ms per request × 1,000 requests / 1,000 ms: CPU seconds per 1,000 requests.
      const per = (ms: number, requests = INVOICES) => (ms / requests).toFixed(2);
      console.log(
        `CPU seconds per 1,000 invoices (closed loop): Rayo ${per(cpuAfter.rayo - cpuBefore.rayo)} (main thread ${per(cpuAfter.rayoMainThread - cpuBefore.rayoMainThread)}), PostgreSQL ${per(cpuAfter.postgres - cpuBefore.postgres)}${nodeCpu === undefined ? '' : `, lnd stand-in ${per(nodeCpu)}`}, load generator ${per((benchCpu.user + benchCpu.system) / 1000)}`,
      );
      console.log(`CPU seconds per 1,000 GET /api/health: Rayo ${per(healthCpu)}`);
    }
    if (memoryAfterClosedLoop && memoryAtEnd) {
      console.log(
        `Rayo's memory: ${memoryAfterClosedLoop.rss.toFixed(0)} MiB resident after the closed loop, ${memoryAtEnd.rss.toFixed(0)} MiB at the end, peak ${memoryAtEnd.peak.toFixed(0)} MiB\n`,
      );
    }
    for (const row of counted.statements.filter((statement) => statement.perCall >= 0.01)) {
      console.log(`  ${row.perCall.toFixed(2)}  ${row.query.replace(/\s+/g, ' ').slice(0, 150)}`);
    }
  } finally {
    await stopRayo(rayo.child);
  }
} finally {
  await node?.stop();
  await cluster.stop();
  await rm(dataDir, { recursive: true, force: true });
  await agent.close();
}
