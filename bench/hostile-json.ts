/**
 * Deeply nested JSON against a signed-in merchant (issue 24, item 1): the p95 of a signed-in
 * `GET /api/accounts`, sent at a steady rate, first on an idle server and then while anonymous
 * clients post hostile bodies to the public sign-up as fast as they are answered:
 * - `deep`: 6,000 nested arrays in 12 KB, the body the attack run used;
 * - `wide`: 1 MiB (the body limit) of 32-level nests side by side, the most a body may nest;
 * - `huge`: 1 MiB that opens arrays and never closes them.
 * Everything runs on loopback against a real Rayo process on a throwaway embedded PostgreSQL.
 * Each attack is measured right after an idle run of its own, so that a machine whose load drifts
 * is compared with itself, and with the CPU time the Rayo process spent per hostile body, which
 * other work on the machine does not inflate as it does latencies.
 *
 * The request budget is on as shipped; `BENCH_BUDGET=off` measures the server without it.
 *
 *   node bench/hostile-json.ts     (BENCH_ATTACKERS, BENCH_RATE, BENCH_SECONDS change the load)
 */
import { chmod, mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import type { SignInResponse } from '@rayo/shared';
import { Agent, request } from 'undici';
import { loadConfig } from '../apps/server/src/config.ts';
import { startEmbeddedPostgres } from '../apps/server/src/db/embedded-postgres.ts';
import { formatResult, type LoadResult, runFixedRate } from './load.ts';
import { startRayo, stopRayo } from './rayo-process.ts';

const ATTACKERS = Number(process.env.BENCH_ATTACKERS ?? 4);
const RATE = Number(process.env.BENCH_RATE ?? 50);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 15);
const BODY_LIMIT = 1024 * 1024;

const nest = (levels: number) => `${'['.repeat(levels)}0${']'.repeat(levels)}`;
const wideUnit = `${nest(32)},`;
const BODIES: Record<string, string> = {
  deep: nest(6000),
  wide: `[${wideUnit.repeat(Math.floor((BODY_LIMIT - 2) / wideUnit.length))}0]`,
  huge: '['.repeat(BODY_LIMIT - 1),
};

/** A call the server leaves waiting a minute counts as an error, so that a stalled server ends the run. */
const merchant = new Agent({ connections: 8, headersTimeout: 60_000, bodyTimeout: 60_000 });

async function signUpAndIn(url: string, databaseUrl: string): Promise<string> {
  const { createDatabase } = await import('../apps/server/src/db/database.ts');
  const { createOrganization } = await import('../apps/server/src/modules/organizations/organizations.service.ts');
  const { createUser } = await import('../apps/server/src/modules/users/users.service.ts');
  const db = createDatabase(databaseUrl, 1);
  const organization = await createOrganization(db, { name: 'Bench Café', countryCode: 'US', language: 'en' });
  const credentials = { email: 'bench@rayo.local', password: 'Bench-pass-2026!' };
  await createUser(db, {
    organizationId: organization.id,
    name: 'Bench',
    role: 'admin',
    language: 'en',
    ...credentials,
  });
  await db.destroy();
  const response = await request(`${url}/api/auth/signin`, {
    method: 'POST',
    dispatcher: merchant,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(credentials),
  });
  return ((await response.body.json()) as SignInResponse).accessToken;
}

/**
 * Posts `body` to the public sign-up, one after another on a connection of its own, until
 * `stop` aborts; a request still waiting then is dropped, not counted.
 */
function attack(url: string, body: string, stop: AbortSignal) {
  const agent = new Agent({ connections: 1 });
  const statuses = new Map<number, number>();
  const run = async () => {
    while (!stop.aborted) {
      const response = await request(`${url}/api/auth/signup`, {
        method: 'POST',
        dispatcher: agent,
        headers: { 'content-type': 'application/json' },
        body,
        signal: stop,
      }).catch(() => undefined);
      if (!response) continue;
      await response.body.dump().catch(() => {});
      statuses.set(response.statusCode, (statuses.get(response.statusCode) ?? 0) + 1);
    }
    await agent.destroy();
  };
  return { done: run(), statuses };
}

/** User and system CPU time the process has used, in ms (Linux; fields 14 and 15 of its stat, in ticks of 10 ms). */
async function cpuMs(pid: number): Promise<number> {
  const fields = (await readFile(`/proc/${pid}/stat`, 'utf8')).split(') ')[1]?.split(' ') ?? [];
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

async function measure(url: string, token: string): Promise<LoadResult & { errors: number }> {
  return runFixedRate(RATE, SECONDS, async () => {
    const response = await request(`${url}/api/accounts`, {
      dispatcher: merchant,
      headers: { authorization: `Bearer ${token}` },
    });
    await response.body.dump();
    if (response.statusCode !== 200) throw new Error(`GET /api/accounts answered ${response.statusCode}`);
  });
}

/**
 * Each attacker runs in a thread of its own, so that the merchant's calls are timed by an event
 * loop that is not also busy sending hostile bodies and reading their refusals. A thread takes
 * seconds to load on a busy machine: `ready` settles once it has, and `start` sets it going.
 */
function attackFromWorker(url: string, body: string) {
  const worker = new Worker(new URL(import.meta.url), { workerData: { url, body } });
  const ready = new Promise<void>((resolve) => worker.once('message', () => resolve()));
  const statuses = ready.then(
    () =>
      new Promise<Map<number, number>>((resolve, reject) => {
        worker.once('message', (entries: Array<[number, number]>) => resolve(new Map(entries)));
        worker.once('error', reject);
      }),
  );
  return {
    ready,
    start: () => worker.postMessage('start'),
    stop: () => worker.postMessage('stop'),
    statuses,
  };
}

/** An attacker's thread: says it is ready, attacks from `start` to `stop`, then reports the statuses it got. */
async function attackInWorker(): Promise<void> {
  const { url, body } = workerData as { url: string; body: string };
  const port = parentPort;
  if (!port) return;
  const started = new Promise((resolve) => port.once('message', resolve));
  port.postMessage('ready');
  await started;
  const stop = new AbortController();
  port.once('message', () => stop.abort());
  const attacker = attack(url, body, stop.signal);
  await attacker.done;
  port.postMessage([...attacker.statuses]);
  port.close();
}

async function main(): Promise<void> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'rayo-bench-'));
  await chmod(dataDir, 0o755);
  const cluster = await startEmbeddedPostgres({
    dataDir,
    port: 15_000 + Math.floor(Math.random() * 1000),
    persistent: false,
  });
  try {
    // The request budget as shipped, unless BENCH_BUDGET=off measures the server without it.
    const shipped = loadConfig({}).requestBudget;
    const budget: Record<string, string> =
      process.env.BENCH_BUDGET === 'off'
        ? {}
        : {
            REQUEST_BUDGET_ANONYMOUS_BURST: String(shipped.anonymous.burst),
            REQUEST_BUDGET_SIGNED_IN_BURST: String(shipped.signedIn.burst),
          };
    const rayo = await startRayo({ DATABASE_URL: cluster.url, DATA_DIR: dataDir, ...budget });
    try {
      const token = await signUpAndIn(rayo.url, cluster.url);
      await measure(rayo.url, token); // warm-up
      const pid = rayo.child.pid as number;
      console.log(`GET /api/accounts at ${RATE}/s for ${SECONDS} s, signed in`);
      for (const [name, body] of Object.entries(BODIES)) {
        const idleCpu = await cpuMs(pid);
        const idle = await measure(rayo.url, token);
        const idleUsed = (await cpuMs(pid)) - idleCpu;
        console.log(`${formatResult('idle', idle)} Rayo CPU ${(idleUsed / SECONDS).toFixed(0)} ms/s`);
        const attackers = Array.from({ length: ATTACKERS }, () => attackFromWorker(rayo.url, body));
        await Promise.all(attackers.map((attacker) => attacker.ready));
        const attackCpu = await cpuMs(pid);
        for (const attacker of attackers) attacker.start();
        const result = await measure(rayo.url, token);
        for (const attacker of attackers) attacker.stop();
        const statuses = await Promise.all(attackers.map((attacker) => attacker.statuses));
        const cpu = (await cpuMs(pid)) - attackCpu;
        const answers = new Map<number, number>();
        for (const counts of statuses) {
          for (const [status, count] of counts) answers.set(status, (answers.get(status) ?? 0) + count);
        }
        const hostile = [...answers.values()].reduce((sum, count) => sum + count, 0);
        const summary = [...answers].map(([status, count]) => `${count}×${status}`).join(' ');
        const label = `${ATTACKERS} × ${name} (${(body.length / 1024).toFixed(0)} KiB)`;
        console.log(
          `${formatResult(label, result)} ${result.errors} errors; attackers got ${summary || 'no answer'}; ` +
            `Rayo CPU ${(cpu / SECONDS).toFixed(0)} ms/s, ${hostile > 0 ? ((cpu - idleUsed) / hostile).toFixed(2) : '-'} ms more per hostile body`,
        );
      }
    } finally {
      await stopRayo(rayo.child);
    }
  } finally {
    await cluster.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

if (isMainThread) await main();
else await attackInWorker();
