import type { Config } from '../config.ts';
import { createDatabase, type Db, type ReadDb } from './database.ts';
import { startEmbeddedPostgres } from './embedded-postgres.ts';
import { migrateToLatest } from './migrate.ts';

/**
 * `url` is for the connections Kysely cannot serve, such as LISTEN. `readDb` is the replica of
 * `DATABASE_READ_URL`, or `db` itself without one.
 */
export type OpenDatabase = { db: Db; readDb: ReadDb; url: string; embedded: boolean; close: () => Promise<void> };

/**
 * Connects to `DATABASE_URL`, or starts the embedded PostgreSQL under the data directory when it
 * is unset, then applies pending migrations; and connects to the replica of `DATABASE_READ_URL`
 * if one is set (a pool opens its connections on first use, so a replica that is down fails
 * the reads sent to it, not the start).
 */
export async function openDatabase(
  config: Config,
  log: (message: string) => void,
  whileStarting?: () => void,
): Promise<OpenDatabase> {
  if (config.databaseUrl) whileStarting?.();
  const cluster = config.databaseUrl
    ? undefined
    : await startEmbeddedPostgres({ dataDir: config.dataDir, port: config.embeddedPgPort, log, whileStarting });
  if (cluster) log(`Embedded PostgreSQL on 127.0.0.1:${cluster.port}, data in ${config.dataDir}`);
  const url = cluster?.url ?? (config.databaseUrl as string);
  const db = createDatabase(url);
  try {
    const applied = await migrateToLatest(db);
    if (applied.length > 0) log(`Applied migrations: ${applied.join(', ')}`);
  } catch (error) {
    await db.destroy();
    await cluster?.stop();
    throw error;
  }
  const replica = config.databaseReadUrl ? createDatabase(config.databaseReadUrl, 10, 'replica') : undefined;
  return {
    db,
    readDb: replica ?? db,
    url,
    embedded: cluster !== undefined,
    close: async () => {
      await replica?.destroy();
      await db.destroy();
      await cluster?.stop();
    },
  };
}
