import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, chown, lstat, mkdir, mkdtemp, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import * as tar from 'tar';
import { z } from 'zod';
import { summarizeLedger } from '../modules/transactions/transactions.repo.ts';
import { type BaseBackupStep, takeBaseBackup } from './base-backup.ts';
import { createDatabase } from './database.ts';
import {
  claimDataDir,
  liveClusterUrl,
  releaseDataDir,
  startEmbeddedPostgres,
  stopOrphanedPostgres,
} from './embedded-postgres.ts';

const CLUSTER = 'postgres';
const PASSWORD_FILE = 'postgres-password';
const MANIFEST = 'rayo-backup.json';

const ManifestSchema = z.object({
  format: z.literal(1),
  takenAt: z.iso.datetime(),
  startLsn: z.string(),
  stopLsn: z.string(),
  serverVersionNum: z.number().int(),
  walFiles: z.number().int(),
});
export type BackupManifest = z.infer<typeof ManifestSchema>;

export type EmbeddedBackupOptions = {
  /** The embedded PostgreSQL's folder (`DATA_DIR`). */
  dataDir: string;
  /** The port to start it on when no Rayo is running on `dataDir` (`EMBEDDED_PG_PORT`). */
  port: number;
  log: (message: string) => void;
};

/** What a restored database holds, so the operator can tell it is the one they meant. */
export type LedgerSummary = Awaited<ReturnType<typeof summarizeLedger>>;

/**
 * Backs up the embedded PostgreSQL into one `.tar.gz` file, while Rayo runs on it or not: a base
 * backup with the WAL written during it (db/base-backup.ts), the cluster's password and a
 * manifest. The file holds every merchant's records and the secrets Rayo generated for itself
 * (server_secrets): keep it as safe as the server.
 */
export async function backupEmbeddedDatabase(
  options: EmbeddedBackupOptions & { file: string; onStep?: (step: BaseBackupStep) => void | Promise<void> },
): Promise<BackupManifest> {
  const running = await liveClusterUrl(options.dataDir, 'postgres');
  const started = running
    ? undefined
    : await startEmbeddedPostgres({ dataDir: options.dataDir, port: options.port, log: options.log });
  const staging = await mkdtemp(`${options.file}.partial-`);
  try {
    options.log(
      running ? 'Backing up the running embedded PostgreSQL…' : 'Started the embedded PostgreSQL to back it up…',
    );
    const takenAt = new Date().toISOString();
    const backup = await takeBaseBackup({
      url: running ?? (started?.url as string),
      targetDir: path.join(staging, CLUSTER),
      label: `rayo backup ${takenAt}`,
      onStep: options.onStep,
    });
    const manifest: BackupManifest = { format: 1, takenAt, ...backup };
    await writeFile(path.join(staging, MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`);
    await writeFile(path.join(staging, PASSWORD_FILE), await readFile(path.join(options.dataDir, PASSWORD_FILE)), {
      mode: 0o600,
    });
    const partial = path.join(staging, 'archive.tar.gz');
    await tar.create({ gzip: true, file: partial, cwd: staging, portable: false }, [MANIFEST, PASSWORD_FILE, CLUSTER]);
    await chmod(partial, 0o600);
    await rename(partial, options.file);
    return manifest;
  } finally {
    await rm(staging, { recursive: true, force: true });
    await started?.stop();
  }
}

/** Reads a backup's manifest without unpacking the rest. */
export async function readBackupManifest(file: string): Promise<BackupManifest> {
  let text: string | undefined;
  await tar.list({
    file,
    filter: (entry) => entry === MANIFEST,
    onReadEntry: (entry) => {
      const chunks: Buffer[] = [];
      entry.on('data', (chunk: Buffer) => chunks.push(chunk));
      entry.on('end', () => {
        text = Buffer.concat(chunks).toString('utf8');
      });
    },
  });
  const parsed = ManifestSchema.safeParse(text === undefined ? undefined : JSON.parse(text));
  if (!parsed.success) throw new Error(`${file} is not a backup made by npm run backup`);
  return parsed.data;
}

const run = promisify(execFile);

/**
 * Who must own the restored cluster: whoever owned the one it replaces, or, as root on a machine
 * where Rayo never ran, the `postgres` user the embedded-postgres package runs PostgreSQL as.
 */
async function clusterOwner(previous: string): Promise<{ uid: number; gid: number } | undefined> {
  if (process.getuid?.() !== 0) return undefined;
  if (existsSync(previous)) return lstat(previous);
  const id = async (flag: string) => Number((await run('id', [flag, 'postgres'])).stdout.trim());
  try {
    return { uid: await id('-u'), gid: await id('-g') };
  } catch {
    throw new Error('As root, the restored PostgreSQL runs as the user postgres, which is missing: useradd postgres');
  }
}

async function chownTree(target: string, owner: { uid: number; gid: number }): Promise<void> {
  await chown(target, owner.uid, owner.gid);
  if (!(await lstat(target)).isDirectory()) return;
  for (const entry of await readdir(target)) await chownTree(path.join(target, entry), owner);
}

/**
 * Replaces the embedded PostgreSQL's data with a backup's, keeping the data it replaces beside it,
 * then starts PostgreSQL once on it to replay the backup's WAL, and answers what it holds. Refused
 * while Rayo runs on the data directory. A backup that does not start leaves the data as it was.
 */
export async function restoreEmbeddedDatabase(
  options: EmbeddedBackupOptions & { file: string },
): Promise<{ manifest: BackupManifest; keptIn: string | undefined; summary: LedgerSummary }> {
  const manifest = await readBackupManifest(options.file);
  const { dataDir } = options;
  await claimDataDir(dataDir);
  const clusterDir = path.join(dataDir, CLUSTER);
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const kept = existsSync(clusterDir) ? path.join(dataDir, `before-restore-${stamp}`) : undefined;
  const staging = await mkdtemp(path.join(dataDir, 'restore-'));
  let moved = false;
  try {
    if (kept) {
      // PostgreSQL left running by a Rayo that was killed would go on writing to the moved folder.
      const password = await readFile(path.join(dataDir, PASSWORD_FILE), 'utf8').catch(() => undefined);
      if (password) await stopOrphanedPostgres(clusterDir, password.trim(), options.log);
    }
    const owner = await clusterOwner(clusterDir);
    await tar.extract({ file: options.file, cwd: staging });
    if (owner) await chownTree(path.join(staging, CLUSTER), owner);
    if (kept) await moveCluster(dataDir, kept);
    moved = true;
    await moveCluster(staging, dataDir);
  } catch (error) {
    if (moved) await undoRestore(dataDir, kept);
    throw error;
  } finally {
    await rm(staging, { recursive: true, force: true });
    await releaseDataDir(dataDir);
  }
  try {
    return { manifest, keptIn: kept, summary: await startOnce(options) };
  } catch (error) {
    await undoRestore(dataDir, kept);
    throw new Error(
      `The backup did not start, so the data was put back as it was: ${error instanceof Error ? error.message : error}`,
      { cause: error },
    );
  }
}

/** Moves the cluster and its password from one folder to another, which is made if needed. */
async function moveCluster(from: string, to: string): Promise<void> {
  await mkdir(to, { recursive: true, mode: 0o700 });
  await rename(path.join(from, CLUSTER), path.join(to, CLUSTER));
  await rename(path.join(from, PASSWORD_FILE), path.join(to, PASSWORD_FILE));
}

/** Puts the data a restore replaced back in its place. */
async function undoRestore(dataDir: string, kept: string | undefined): Promise<void> {
  await rm(path.join(dataDir, CLUSTER), { recursive: true, force: true });
  if (!kept) return;
  await moveCluster(kept, dataDir);
  await rm(kept, { recursive: true });
}

/** The first start replays the backup's WAL up to the moment the backup stopped. */
async function startOnce(options: EmbeddedBackupOptions): Promise<LedgerSummary> {
  const cluster = await startEmbeddedPostgres({ dataDir: options.dataDir, port: options.port, log: options.log });
  const db = createDatabase(cluster.url, 1);
  try {
    return await summarizeLedger(db);
  } finally {
    await db.destroy();
    await cluster.stop();
  }
}
