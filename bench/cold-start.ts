import { spawn } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { loadavg } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { repoRoot } from '../apps/server/src/config.ts';

/**
 * Times Rayo's cold start: the data directory is deleted, `main.ts` is started with the demo seed
 * on, and the clock runs from the spawn until `/api/ready` answers 200. Every line the server
 * prints is shown with its time since the spawn, which splits the start into its steps.
 * `COLD_START_SERVER` times another checkout's `apps/server/src/main.ts` instead, for a before and
 * after on the same machine at the same time.
 */
const RUNS = Number(process.env.COLD_START_RUNS ?? 5);
const PORT = Number(process.env.COLD_START_PORT ?? 18_950);
const PG_PORT = Number(process.env.COLD_START_PG_PORT ?? 15_950);
const DATA_DIR = path.resolve(process.env.COLD_START_DATA_DIR ?? path.join(repoRoot, '.data/bench-cold-start'));
const SERVER = path.resolve(process.env.COLD_START_SERVER ?? path.join(repoRoot, 'apps/server/src/main.ts'));
const POLL_MS = 10;

async function coldStart(): Promise<number> {
  await rm(DATA_DIR, { recursive: true, force: true });
  const started = performance.now();
  const since = () => `${((performance.now() - started) / 1000).toFixed(2).padStart(6)} s`;
  const child = spawn(process.execPath, [SERVER], {
    cwd: path.resolve(SERVER, '../../../..'),
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      PORT: String(PORT),
      EMBEDDED_PG_PORT: String(PG_PORT),
      DATA_DIR,
      SEED_DEMO: 'true',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  for (const stream of [child.stdout, child.stderr]) {
    createInterface({ input: stream }).on('line', (line) => {
      if (line.trim()) console.log(`  ${since()}  ${line}`);
    });
  }
  try {
    while (child.exitCode === null) {
      const ready = await fetch(`http://127.0.0.1:${PORT}/api/ready`).then(
        (response) => response.ok,
        () => false,
      );
      if (ready) {
        const seconds = (performance.now() - started) / 1000;
        console.log(`  ${since()}  /api/ready answered 200`);
        return seconds;
      }
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
    throw new Error(`Rayo exited with code ${child.exitCode} before it was ready`);
  } finally {
    if (child.exitCode === null) {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
    }
  }
}

const times: number[] = [];
for (let run = 1; run <= RUNS; run += 1) {
  const load = loadavg()[0]?.toFixed(2);
  console.log(`Run ${run} of ${RUNS} (load average ${load}):`);
  times.push(await coldStart());
}
await rm(DATA_DIR, { recursive: true, force: true });
const sorted = [...times].sort((a, b) => a - b);
const median = sorted[Math.floor(sorted.length / 2)] ?? 0;
console.log(
  `\nReady in ${median.toFixed(2)} s (median of ${RUNS}), ${sorted[0]?.toFixed(2)}–${sorted.at(-1)?.toFixed(2)} s; ` +
    `load average ${loadavg()
      .map((value) => value.toFixed(2))
      .join(', ')}`,
);
