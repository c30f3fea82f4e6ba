import { spawn } from 'node:child_process';
import path from 'node:path';
import { repoRoot } from '../apps/server/src/config.ts';

/** Starts a real Rayo process (`apps/server/src/main.ts`) on a random loopback port and waits until it is ready. */
export async function startRayo(
  env: Record<string, string>,
): Promise<{ url: string; child: ReturnType<typeof spawn> }> {
  const port = 18_000 + Math.floor(Math.random() * 1000);
  const child = spawn(process.execPath, [path.join(repoRoot, 'apps/server/src/main.ts')], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      SIGNIN_LIMIT_PER_IP: '1000',
      // The benchmarks drive one user from one address far past any client's rate; the hostile
      // JSON benchmark measures the request budget and passes it as shipped.
      REQUEST_BUDGET_ANONYMOUS_BURST: '1000000',
      REQUEST_BUDGET_SIGNED_IN_BURST: '1000000',
      ...env,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  // Two minutes, as e2e allows: a cold start on a busy machine can take half of that.
  const deadline = performance.now() + 120_000;
  while (performance.now() < deadline) {
    const ready = await fetch(`${url}/api/ready`).then(
      (r) => r.ok,
      () => false,
    );
    if (ready) return { url, child };
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  child.kill('SIGKILL');
  throw new Error('Rayo did not start');
}

export async function stopRayo(child: ReturnType<typeof spawn>): Promise<void> {
  if (child.exitCode !== null) return;
  child.kill('SIGTERM');
  await new Promise((resolve) => child.once('exit', resolve));
}
