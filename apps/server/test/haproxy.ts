import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../src/ports.ts';

/** Debian's HAProxy, or undefined where it is not installed. */
export function findHaproxy(): string | undefined {
  for (const candidate of [process.env.HAPROXY_PATH, '/usr/sbin/haproxy', '/usr/local/sbin/haproxy']) {
    if (!candidate) continue;
    try {
      execFileSync(candidate, ['-v'], { stdio: 'ignore' });
      return candidate;
    } catch {
      // Not this one.
    }
  }
  return undefined;
}

export type Balancer = {
  url: string;
  /** Each server's state as the balancer's health checks see it (`UP`, `DOWN`, …), by name. */
  states: () => Promise<Map<string, string>>;
  /** How many connections the balancer holds open to each server, by name. */
  sessions: () => Promise<Map<string, number>>;
  stop: () => Promise<void>;
};

/**
 * HAProxy in front of `servers` (name → port on 127.0.0.1), configured as docs/deploy.md tells an
 * operator to: round robin, health checks on /api/ready, a connection refused retried on another
 * server, event streams kept open, and the client's address in X-Forwarded-For.
 */
export async function startBalancer(binary: string, servers: Record<string, number>): Promise<Balancer> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'rayo-haproxy-'));
  const port = await freePort();
  const socket = path.join(dir, 'admin.sock');
  const config = [
    'global',
    `  stats socket ${socket} mode 600 level admin`,
    'defaults',
    '  mode http',
    '  timeout connect 2s',
    // Longer than the 15 s between event-stream heartbeats, so an idle stream stays open.
    '  timeout client 60s',
    '  timeout server 60s',
    '  option forwardfor',
    // A request to a server that is gone (refused, nothing sent) goes to another one.
    '  retries 3',
    '  option redispatch 1',
    '  retry-on conn-failure',
    'frontend rayo',
    `  bind 127.0.0.1:${port}`,
    '  default_backend rayo',
    'backend rayo',
    '  balance roundrobin',
    '  option httpchk GET /api/ready',
    '  http-check expect status 200',
    '  default-server inter 250ms fall 2 rise 1',
    ...Object.entries(servers).map(([name, serverPort]) => `  server ${name} 127.0.0.1:${serverPort} check`),
    '',
  ].join('\n');
  const file = path.join(dir, 'haproxy.cfg');
  await writeFile(file, config);
  const child: ChildProcess = spawn(binary, ['-db', '-f', file], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));

  const ask = (command: string) =>
    new Promise<string>((resolve, reject) => {
      const connection = net.connect(socket);
      let answer = '';
      connection.on('data', (chunk) => {
        answer += chunk.toString();
      });
      connection.on('end', () => resolve(answer));
      connection.on('error', reject);
      connection.end(`${command}\n`);
    });
  /** `show stat` is CSV with a `# pxname,svname,…` header; the rows of the backend's servers. */
  const stats = async () => {
    const [header = '', ...rows] = (await ask('show stat')).trim().split('\n');
    const columns = header.replace(/^# /, '').split(',');
    return rows
      .map((row) => Object.fromEntries(row.split(',').map((value, i) => [columns[i], value])))
      .filter((row) => row.pxname === 'rayo' && row.svname in servers);
  };

  // Ready once it answers on its admin socket, which it opens after binding the front end.
  const deadline = Date.now() + 10_000;
  while (
    !(await ask('show info').then(
      (info) => info.includes('Uptime'),
      () => false,
    ))
  ) {
    if (child.exitCode !== null) throw new Error(`haproxy exited with ${child.exitCode}:\n${output}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`haproxy did not start in 10 s:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }

  return {
    url: `http://127.0.0.1:${port}`,
    states: async () => new Map((await stats()).map((row) => [row.svname as string, row.status as string])),
    sessions: async () => new Map((await stats()).map((row) => [row.svname as string, Number(row.scur)])),
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
      await rm(dir, { recursive: true, force: true });
    },
  };
}
