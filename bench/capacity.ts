/**
 * What one sale costs the database and a server, for the capacity model in docs/scaling.md: a
 * real Rayo process charges through the lnd stand-in over HTTPS (the production path: Rayo asks
 * the node for each invoice and follows its settle stream), then the node settles every invoice
 * and Rayo records the payments. For each phase: CPU of Rayo and of PostgreSQL per sale (from
 * /proc), rows written per sale by table, WAL bytes and commits per sale.
 *
 *   npm run bench:capacity          (BENCH_SALES, default 2000)
 */
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Invoice } from '@rayo/shared';
import pg from 'pg';
import { startEmbeddedPostgres } from '../apps/server/src/db/embedded-postgres.ts';
import { startFakeLnd } from '../apps/server/test/fakes/lnd-server.ts';
import { runLoad } from './load.ts';
import { agent, CONCURRENCY, call, cpuMs, seedShop } from './measure.ts';
import { startRayo, stopRayo } from './rayo-process.ts';

const SALES = Number(process.env.BENCH_SALES ?? 2000);

type Snapshot = {
  cpu: { rayo: number; postgres: number };
  rows: Map<string, number>;
  walBytes: bigint;
  commits: number;
};

/** Rows inserted, updated and deleted so far per table, the WAL position and the commits. */
async function snapshot(client: pg.Client, pid: number, clusterDir: string): Promise<Snapshot> {
  // The statistics are flushed by each backend about once a second; this asks for the latest.
  await client.query('select pg_stat_force_next_flush()');
  await new Promise((resolve) => setTimeout(resolve, 1500));
  const tables = await client.query<{ name: string; rows: string }>(
    `select relname as name, n_tup_ins + n_tup_upd + n_tup_del as rows from pg_stat_user_tables
     union all
     select 'graphile_worker.' || relname, n_tup_ins + n_tup_upd + n_tup_del from pg_stat_all_tables
     where schemaname = 'graphile_worker'`,
  );
  const wal = await client.query<{ lsn: string }>(`select pg_current_wal_lsn() - '0/0' as lsn`);
  const commits = await client.query<{ commits: string }>(
    'select xact_commit as commits from pg_stat_database where datname = current_database()',
  );
  const cpu = await cpuMs(pid, clusterDir);
  if (!cpu) throw new Error('CPU figures need /proc');
  return {
    cpu,
    rows: new Map(tables.rows.map((row) => [row.name, Number(row.rows)])),
    walBytes: BigInt(wal.rows[0]?.lsn ?? '0'),
    commits: Number(commits.rows[0]?.commits),
  };
}

function report(phase: string, before: Snapshot, after: Snapshot): void {
  const per = (value: number) => (value / SALES).toFixed(2);
  console.log(`\n${phase}, per sale (${SALES} sales):`);
  console.log(
    `  CPU: Rayo ${per(after.cpu.rayo - before.cpu.rayo)} ms, PostgreSQL ${per(after.cpu.postgres - before.cpu.postgres)} ms`,
  );
  console.log(
    `  WAL ${per(Number(after.walBytes - before.walBytes))} bytes, commits ${per(after.commits - before.commits)}`,
  );
  const changed = [...after.rows]
    .map(([name, rows]) => ({ name, rows: rows - (before.rows.get(name) ?? 0) }))
    .filter((table) => table.rows > 0)
    .sort((a, b) => b.rows - a.rows);
  console.log(`  rows written (inserted + updated + deleted): ${per(changed.reduce((sum, t) => sum + t.rows, 0))}`);
  for (const table of changed) console.log(`    ${per(table.rows)}  ${table.name}`);
}

const dataDir = await mkdtemp(path.join(os.tmpdir(), 'rayo-capacity-'));
await chmod(dataDir, 0o755);
const cluster = await startEmbeddedPostgres({
  dataDir,
  port: 16_000 + Math.floor(Math.random() * 1000),
  persistent: false,
});
const lnd = await startFakeLnd({ network: 'regtest' });
const certPath = path.join(dataDir, 'lnd-tls.cert');
await writeFile(certPath, lnd.certPem);
const client = new pg.Client({ connectionString: cluster.url });
try {
  const rayo = await startRayo({
    DATABASE_URL: cluster.url,
    DATA_DIR: dataDir,
    LIGHTNING_BACKEND: 'lnd',
    LND_REST_URL: lnd.url,
    LND_MACAROON_HEX: lnd.macaroonHex,
    LND_TLS_CERT_PATH: certPath,
  });
  try {
    await client.connect();
    const shop = await seedShop(rayo.url, cluster.url);
    const charge = () =>
      call<Invoice>(`${rayo.url}/api/bpts/${shop.bpt.id}/invoices`, 'POST', { amount: '4.20' }, shop.token);
    const paid = async (count: number) => {
      for (;;) {
        const { rows } = await client.query<{ n: string }>('select count(*) as n from transactions');
        if (Number(rows[0]?.n) >= count) return;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    };
    // Warm up the JIT, the pools and the node connection, and pay those too.
    const warmup: Invoice[] = [];
    await runLoad(200, CONCURRENCY, async () => {
      warmup.push(await charge());
    });
    for (const invoice of warmup) lnd.settle(invoice.paymentHash);
    await paid(warmup.length);

    const pid = rayo.child.pid as number;
    const clusterDir = path.join(dataDir, 'postgres');
    const issued: Invoice[] = [];
    const beforeIssuing = await snapshot(client, pid, clusterDir);
    const issuing = await runLoad(SALES, CONCURRENCY, async () => {
      issued.push(await charge());
    });
    const afterIssuing = await snapshot(client, pid, clusterDir);
    const settleStart = performance.now();
    for (const invoice of issued) lnd.settle(invoice.paymentHash);
    await paid(warmup.length + issued.length);
    const settleSeconds = (performance.now() - settleStart) / 1000;
    const afterSettling = await snapshot(client, pid, clusterDir);

    const load = os.loadavg().map((value) => value.toFixed(2));
    console.log(
      `Machine: ${os.cpus().length} × ${os.cpus()[0]?.model}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}, ${new Date().toISOString().slice(0, 10)}, load average ${load.join(' ')} at the end`,
    );
    console.log(
      `Issuing: ${issuing.perSecond.toFixed(0)} invoices/s over the lnd stand-in, ${CONCURRENCY} clients; settling: ${(SALES / settleSeconds).toFixed(0)} payments/s recorded from the settle stream`,
    );
    report('Issuing an invoice (POST /api/bpts/:id/invoices, lnd)', beforeIssuing, afterIssuing);
    report('Recording its payment (settle stream, ledger, NOTIFY)', afterIssuing, afterSettling);
    report('The whole sale', beforeIssuing, afterSettling);
  } finally {
    await stopRayo(rayo.child);
  }
} finally {
  await client.end().catch(() => {});
  await lnd.close();
  await cluster.stop();
  await rm(dataDir, { recursive: true, force: true });
  await agent.close();
}
