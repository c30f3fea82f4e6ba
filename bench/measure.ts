/**
 * What the payment and capacity benchmarks share: an HTTP client, a shop to charge, CPU and memory
 * from /proc, the lnd stand-in in a process of its own.
 */
import { fork } from 'node:child_process';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Account, Bpt, SignInResponse } from '@rayo/shared';
import { Agent, request } from 'undici';

export const CONCURRENCY = 8;
export const agent = new Agent({ connections: CONCURRENCY * 2 });

export async function call<T>(url: string, method: 'GET' | 'POST', body?: object, token?: string): Promise<T> {
  const response = await request(url, {
    method,
    dispatcher: agent,
    headers: { 'content-type': 'application/json', ...(token && { authorization: `Bearer ${token}` }) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await response.body.text();
  if (response.statusCode >= 400) throw new Error(`${method} ${url}: ${response.statusCode} ${text}`);
  return (text ? JSON.parse(text) : undefined) as T;
}

/** An organization with an admin and one terminal, signed in over HTTP. */
export async function seedShop(url: string, databaseUrl: string) {
  const { createDatabase } = await import('../apps/server/src/db/database.ts');
  const { createOrganization } = await import('../apps/server/src/modules/organizations/organizations.service.ts');
  const { createUser } = await import('../apps/server/src/modules/users/users.service.ts');
  const db = createDatabase(databaseUrl, 1);
  const organization = await createOrganization(db, { name: 'Bench Café', countryCode: 'US', language: 'en' });
  await createUser(db, {
    organizationId: organization.id,
    email: 'bench@rayo.local',
    name: 'Bench',
    password: 'Bench-pass-2026!',
    role: 'admin',
    language: 'en',
  });
  await db.destroy();
  const { accessToken } = await call<SignInResponse>(`${url}/api/auth/signin`, 'POST', {
    email: 'bench@rayo.local',
    password: 'Bench-pass-2026!',
  });
  const account = await call<Account>(`${url}/api/accounts`, 'POST', { name: 'Counter' }, accessToken);
  const bpt = await call<Bpt>(
    `${url}/api/bpts`,
    'POST',
    { name: 'Till', accountId: account.id, currency: 'USD' },
    accessToken,
  );
  return { token: accessToken, bpt };
}

/**
 * CPU time (user + system, ms) used so far by the processes given and by PostgreSQL's (the
 * postmaster in `clusterDir` and its children), from /proc: on a shared machine, CPU spent per
 * invoice says more than invoices per second. Rayo's main thread, the event loop every request
 * shares, is counted apart from its other threads. Undefined where /proc is missing.
 */
async function ticksOf(id: number, file = `/proc/${id}/stat`) {
  const stat = await readFile(file, 'utf8').catch(() => '');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return {
    ppid: Number(fields[1]),
    ticks: Number(fields[11]) + Number(fields[12]),
    // utime and stime of the children that ended and were waited for.
    endedChildrenTicks: Number(fields[13]) + Number(fields[14]),
  };
}

/** CPU time (user + system, ms) one process has used so far; NaN where /proc is missing. */
export async function processCpuMs(pid: number): Promise<number> {
  // Linux reports CPU time in clock ticks of 10 ms.
  return (await ticksOf(pid)).ticks * 10;
}

/** A process's resident memory now and at its peak, in MiB (VmRSS, VmHWM); undefined without /proc. */
export async function processMemoryMiB(pid: number): Promise<{ rss: number; peak: number } | undefined> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
  const kib = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1]);
  const rss = kib('VmRSS');
  const peak = kib('VmHWM');
  return Number.isNaN(rss) || Number.isNaN(peak) ? undefined : { rss: rss / 1024, peak: peak / 1024 };
}

export type LndStandIn = {
  pid: number;
  /** What Rayo's lnd backend is configured with (`LND_TLS_CERT_PATH` written under `dir`). */
  env: Record<string, string>;
  /** Settles one of the stand-in's invoices, as a remote payer would. */
  settle(paymentHashHex: string): void;
  stop(): Promise<void>;
};

/** Starts `bench/lnd-stand-in.ts` in a child process and waits until it listens. */
export async function startLndStandIn(dir: string): Promise<LndStandIn> {
  const child = fork(path.join(import.meta.dirname, 'lnd-stand-in.ts'), {
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const ready = await new Promise<{ url: string; certPem: string; macaroonHex: string }>((resolve, reject) => {
    child.once('message', resolve as (message: unknown) => void);
    child.once('exit', (code) => reject(new Error(`the lnd stand-in exited with code ${code}`)));
  });
  const certPath = path.join(dir, 'lnd-tls.cert');
  await writeFile(certPath, ready.certPem);
  return {
    pid: child.pid as number,
    env: {
      LIGHTNING_BACKEND: 'lnd',
      LND_REST_URL: ready.url,
      LND_MACAROON_HEX: ready.macaroonHex,
      LND_TLS_CERT_PATH: certPath,
    },
    settle: (paymentHashHex) => child.send({ settle: paymentHashHex }),
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.disconnect();
      await exited;
    },
  };
}

export async function cpuMs(
  pid: number,
  clusterDir: string,
): Promise<{ rayo: number; rayoMainThread: number; postgres: number } | undefined> {
  const postmaster = Number(
    (await readFile(path.join(clusterDir, 'postmaster.pid'), 'utf8').catch(() => '')).split('\n')[0],
  );
  const rayo = await ticksOf(pid);
  // The main thread's id is the process's.
  const rayoMainThread = await ticksOf(pid, `/proc/${pid}/task/${pid}/stat`);
  if (!postmaster || Number.isNaN(rayo.ticks)) return undefined;
  // A backend that ended meanwhile (a pool closing an idle connection) is counted in the
  // postmaster's children's time, or its CPU would drop out of the sum.
  const postmasterTicks = await ticksOf(postmaster);
  let postgres = postmasterTicks.ticks + postmasterTicks.endedChildrenTicks;
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const child = await ticksOf(Number(entry));
    if (child.ppid === postmaster) postgres += child.ticks;
  }
  return { rayo: rayo.ticks * 10, rayoMainThread: rayoMainThread.ticks * 10, postgres: postgres * 10 };
}
