import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { freePort } from '../src/ports.ts';
import { TEST_JWT_SECRET } from './test-app.ts';

const MAIN = path.join(import.meta.dirname, '../src/main.ts');

export type ServerProcess = {
  url: string;
  child: ChildProcess;
  output: () => string;
  /** SIGTERM: the orderly shutdown. */
  stop: () => Promise<void>;
  /** SIGKILL: no shutdown code runs, as when the machine dies; resolves once the process is gone. */
  kill: () => Promise<void>;
};

/**
 * Starts a real Rayo server process (`src/main.ts`) against `databaseUrl`, or its embedded
 * PostgreSQL under `env.DATA_DIR` when undefined, and waits until it is ready.
 */
export async function startServerProcess(
  databaseUrl: string | undefined,
  env: Record<string, string> = {},
): Promise<ServerProcess> {
  const port = env.PORT ?? String(await freePort());
  const child = spawn(process.execPath, [MAIN], {
    env: {
      ...process.env,
      // Empty counts as unset, also over a DATABASE_URL the test run inherited.
      DATABASE_URL: databaseUrl ?? '',
      HOST: '127.0.0.1',
      PORT: port,
      JWT_SECRET: TEST_JWT_SECRET,
      LOG_LEVEL: 'warn',
      WEB_DIST_DIR: path.join(import.meta.dirname, 'no-web-dist'),
      // As in `createTestApp`: tests send far more from one address than a client does.
      REQUEST_BUDGET_ANONYMOUS_BURST: '1000000',
      REQUEST_BUDGET_SIGNED_IN_BURST: '1000000',
      REQUEST_BUDGET_LAG_MS: '0',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const url = `http://127.0.0.1:${port}`;
  // Two minutes, as e2e and the benchmarks allow: a cold start on a busy machine can take half of that.
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}:\n${output}`);
    const ready = await fetch(`${url}/api/ready`).then(
      (response) => response.ok,
      () => false,
    );
    if (ready) break;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`server not ready in 120 s:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    url,
    child,
    output: () => output,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
    kill: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
  };
}
