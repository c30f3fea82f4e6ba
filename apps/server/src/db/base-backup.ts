import { randomBytes } from 'node:crypto';
import { chmod, chown, copyFile, lstat, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';

/**
 * A base backup's steps: `started` (the server's writes from here on are replayed from the WAL), `copied`
 * (the data directory is copied; the backup is about to stop) and `stopped` (its WAL is copied next).
 */
export type BaseBackupStep = 'started' | 'copied' | 'stopped';

export type BaseBackup = {
  /** Where the server's WAL was when the backup started and where it must be replayed to. */
  startLsn: string;
  stopLsn: string;
  /** The server's PostgreSQL version (`server_version_num`), which must be the one that starts the copy. */
  serverVersionNum: number;
  /** WAL segment files copied into the backup's `pg_wal`. */
  walFiles: number;
};

export type BaseBackupOptions = {
  /** A superuser connection to the running cluster; the cluster's files must be on this machine. */
  url: string;
  /** An empty or missing folder that becomes a data directory PostgreSQL can start from. */
  targetDir: string;
  label?: string;
  /** Told each step as it begins; a promise it returns is waited for. */
  onStep?: (step: BaseBackupStep) => void | Promise<void>;
};

/**
 * What PostgreSQL rebuilds or must not find in a copy ("Making a Base Backup Using the Low Level
 * API"): the folders are kept empty, the files are left out.
 */
const EMPTIED_FOLDERS = new Set([
  'pg_wal',
  'pg_replslot',
  'pg_dynshmem',
  'pg_notify',
  'pg_serial',
  'pg_snapshots',
  'pg_stat_tmp',
  'pg_subtrans',
]);
const LEFT_OUT_FILES = new Set([
  'postmaster.pid',
  'postmaster.opts',
  'backup_label',
  'tablespace_map',
  'backup_manifest',
  'recovery.signal',
  'standby.signal',
]);
/** Copied last and read until two reads agree, so a write racing the copy cannot tear it. */
const CONTROL_FILE = path.join('global', 'pg_control');
const WAL_SEGMENT = /^[0-9A-F]{24}$/;
const TIMELINE_HISTORY = /^[0-9A-F]{8}\.history$/;

function isVanished(error: unknown): boolean {
  return (error as NodeJS.ErrnoException).code === 'ENOENT';
}

/**
 * As root the cluster's files belong to the `postgres` user that runs it; a copy must too, with the
 * same modes, or PostgreSQL refuses to start on it.
 */
async function keepOwnerAndMode(target: string, stat: { uid: number; gid: number; mode: number }): Promise<void> {
  await chmod(target, stat.mode & 0o7777);
  if (process.getuid?.() === 0) await chown(target, stat.uid, stat.gid);
}

/**
 * Copies the cluster's folder `relative` while the server writes to it. A file or folder removed
 * meanwhile (a dropped table) is skipped: the WAL replay removes it too.
 */
async function copyTree(from: string, to: string, relative: string): Promise<void> {
  const source = path.join(from, relative);
  const stat = await lstat(source).catch((error: unknown) => {
    if (isVanished(error)) return undefined;
    throw error;
  });
  if (!stat) return;
  const target = path.join(to, relative);
  const name = path.basename(relative);
  if (stat.isSymbolicLink()) {
    throw new Error(
      `${source} is a link (a tablespace or a moved pg_wal); this backup copies only plain data directories`,
    );
  }
  if (stat.isDirectory()) {
    await mkdir(target, { recursive: true });
    await keepOwnerAndMode(target, stat);
    if (EMPTIED_FOLDERS.has(relative)) return;
    const entries = await readdir(source).catch((error: unknown) => {
      if (isVanished(error)) return [];
      throw error;
    });
    for (const entry of entries) await copyTree(from, to, path.join(relative, entry));
    return;
  }
  if (!stat.isFile() || LEFT_OUT_FILES.has(relative) || relative === CONTROL_FILE) return;
  if (name.startsWith('pgsql_tmp') || name === 'pg_internal.init') return;
  try {
    await copyFile(source, target);
  } catch (error) {
    if (isVanished(error)) return;
    throw error;
  }
  await keepOwnerAndMode(target, stat);
}

async function copyControlFile(from: string, to: string): Promise<void> {
  const source = path.join(from, CONTROL_FILE);
  let previous = await readFile(source);
  for (;;) {
    const current = await readFile(source);
    if (current.equals(previous)) break;
    previous = current;
  }
  const target = path.join(to, CONTROL_FILE);
  await writeFile(target, previous);
  await keepOwnerAndMode(target, await lstat(source));
}

/** `START WAL LOCATION: 0/2000028 (file 000000010000000000000002)` in the backup label. */
function firstWalFile(labelFile: string): string {
  const file = /^START WAL LOCATION: \S+ \(file ([0-9A-F]{24})\)$/m.exec(labelFile)?.[1];
  if (!file) throw new Error('The backup label names no start WAL file');
  return file;
}

/**
 * Copies the WAL the backup needs, from the segment of its start to the one of its end, and the
 * timeline histories, into the copy's `pg_wal`, so that PostgreSQL replays it at its first start.
 */
async function copyWal(
  clusterDir: string,
  targetDir: string,
  segments: { first: string; last: string; segmentsPerLogId: number },
): Promise<number> {
  const { first, last } = segments;
  const from = path.join(clusterDir, 'pg_wal');
  const to = path.join(targetDir, 'pg_wal');
  const timeline = first.slice(0, 8);
  let copied = 0;
  for (const name of await readdir(from)) {
    const needed = WAL_SEGMENT.test(name) && name.startsWith(timeline) && name >= first && name <= last;
    if (!needed && !TIMELINE_HISTORY.test(name)) continue;
    await copyFile(path.join(from, name), path.join(to, name));
    await keepOwnerAndMode(path.join(to, name), await lstat(path.join(from, name)));
    if (needed) copied++;
  }
  // A segment's number is its log id (characters 9–16) times the segments per log id, plus characters 17–24.
  const segmentNumber = (name: string) =>
    Number.parseInt(name.slice(8, 16), 16) * segments.segmentsPerLogId + Number.parseInt(name.slice(16), 16);
  if (copied !== segmentNumber(last) - segmentNumber(first) + 1) {
    throw new Error(`WAL from ${first} to ${last} is no longer all in ${from}; take the backup again`);
  }
  return copied;
}

/**
 * Takes a base backup of a running PostgreSQL with its low-level backup API: `pg_backup_start`,
 * a copy of the data directory while the server keeps writing, `pg_backup_stop`, then its backup
 * label and the WAL written meanwhile. The copy starts as a consistent cluster of the moment the
 * backup stopped (PostgreSQL replays that WAL first), or as a standby with `standby.signal`.
 * A temporary replication slot holds the WAL until it is copied.
 */
export async function takeBaseBackup(options: BaseBackupOptions): Promise<BaseBackup> {
  const client = new pg.Client({ connectionString: options.url });
  await client.connect();
  try {
    const settings = await client.query<{ dir: string; version: string; segment: string }>(
      `select current_setting('data_directory') as dir, current_setting('server_version_num') as version,
        (select setting from pg_settings where name = 'wal_segment_size') as segment`,
    );
    const clusterDir = settings.rows[0]?.dir as string;
    const slot = `rayo_backup_${randomBytes(6).toString('hex')}`;
    await client.query('select pg_create_physical_replication_slot($1, true, true)', [slot]);
    const started = await client.query<{ lsn: string }>('select pg_backup_start($1, true)::text as lsn', [
      options.label ?? `rayo ${new Date().toISOString()}`,
    ]);
    await options.onStep?.('started');
    await mkdir(options.targetDir, { recursive: true });
    await copyTree(clusterDir, options.targetDir, '');
    await copyControlFile(clusterDir, options.targetDir);
    await options.onStep?.('copied');
    // Without waiting for an archive: the WAL goes into the copy below, not through archive_command.
    const stopped = await client.query<{ lsn: string; labelfile: string; spcmapfile: string; last: string }>(
      'select lsn::text, labelfile, spcmapfile, pg_walfile_name(lsn) as last from pg_backup_stop(false)',
    );
    const stop = stopped.rows[0] as (typeof stopped.rows)[number];
    await options.onStep?.('stopped');
    const owner = await lstat(clusterDir);
    await writeFile(path.join(options.targetDir, 'backup_label'), stop.labelfile);
    await keepOwnerAndMode(path.join(options.targetDir, 'backup_label'), { ...owner, mode: 0o600 });
    if (stop.spcmapfile) {
      await writeFile(path.join(options.targetDir, 'tablespace_map'), stop.spcmapfile);
      await keepOwnerAndMode(path.join(options.targetDir, 'tablespace_map'), { ...owner, mode: 0o600 });
    }
    const segmentsPerLogId = 0x1_0000_0000 / Number(settings.rows[0]?.segment);
    const walFiles = await copyWal(clusterDir, options.targetDir, {
      first: firstWalFile(stop.labelfile),
      last: stop.last,
      segmentsPerLogId,
    });
    return {
      startLsn: started.rows[0]?.lsn as string,
      stopLsn: stop.lsn,
      serverVersionNum: Number(settings.rows[0]?.version),
      walFiles,
    };
  } finally {
    // Ending the session also ends a backup it left running and drops its temporary slot.
    await client.end();
  }
}
