import { existsSync } from 'node:fs';
import { chmod, mkdtemp, readFile, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ServerProcess, startServerProcess } from '../../test/server-process.ts';
import { freePort } from '../ports.ts';

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Stops whatever PostgreSQL still runs on the cluster, so that no test run leaves one behind. */
async function stopLeftoverPostgres(dataDir: string): Promise<void> {
  const pidFile = path.join(dataDir, 'postgres', 'postmaster.pid');
  const pid = Number((await readFile(pidFile, 'utf8').catch(() => '')).split('\n')[0]);
  if (!pid || !isAlive(pid)) return;
  process.kill(pid, 'SIGINT');
  const deadline = Date.now() + 30_000;
  while (isAlive(pid) && existsSync(pidFile)) {
    if (Date.now() > deadline) {
      process.kill(pid, 'SIGKILL');
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('the embedded PostgreSQL of a server process', () => {
  let dataDir = '';
  let pgPort = 0;
  let env: Record<string, string> = {};
  const taken = net.createServer();
  const servers: ServerProcess[] = [];

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'rayo-embedded-'));
    // As root, PostgreSQL runs as the `postgres` user, which must reach the cluster directory inside.
    await chmod(dataDir, 0o755);
    pgPort = await freePort();
    await new Promise<void>((resolve) => taken.listen(pgPort, '127.0.0.1', resolve));
    env = { DATA_DIR: dataDir, EMBEDDED_PG_PORT: String(pgPort), SEED_DEMO: 'false', PORT: String(await freePort()) };
  });

  afterAll(async () => {
    for (const server of servers) await server.stop();
    await stopLeftoverPostgres(dataDir);
    taken.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('takes a free port when its own is taken by another program', async () => {
    const server = await startServerProcess(undefined, env);
    servers.push(server);
    expect(server.output()).toContain(`Port ${pgPort} is taken`);
  }, 120_000);

  it('refuses to start on the data of a server that is running', async () => {
    const second = startServerProcess(undefined, { ...env, PORT: String(await freePort()) });
    await expect(second).rejects.toThrow(/Rayo \(pid \d+\) is already running/);
    expect((await fetch(`${servers[0]?.url}/api/ready`)).status).toBe(200);
  }, 60_000);

  it('starts again after the server was killed with SIGKILL, stopping the PostgreSQL it left', async () => {
    const killed = servers[0] as ServerProcess;
    killed.child.kill('SIGKILL');
    await killed.stop();

    const again = await startServerProcess(undefined, env);
    servers.push(again);
    expect(again.output()).toContain('left running by a Rayo that died');
    expect((await fetch(`${again.url}/api/ready`)).status).toBe(200);
  }, 120_000);

  it('stops its PostgreSQL and exits cleanly on SIGHUP', async () => {
    const running = servers[1] as ServerProcess;
    running.child.kill('SIGHUP');
    await running.stop();
    expect(running.child.exitCode).toBe(0);
    expect(existsSync(path.join(dataDir, 'postgres', 'postmaster.pid'))).toBe(false);
    expect(existsSync(path.join(dataDir, 'rayo.pid'))).toBe(false);
  }, 30_000);
});
