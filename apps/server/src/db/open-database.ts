import type { Config } from '../config.ts';
import { createDatabase, type Db } from './database.ts';
import { startEmbeddedPostgres } from './embedded-postgres.ts';
import { migrateToLatest } from './migrate.ts';

/** `url` is for the connections Kysely cannot serve, such as LISTEN. */
export type OpenDatabase = { db: Db; url: string; embedded: boolean; close: () => Promise<void> };

/**
 * Connects to `DATABASE_URL`, or starts the embedded PostgreSQL under the data directory when it
 * is unset, then applies pending migrations.
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
  return {
    db,
    url,
    embedded: cluster !== undefined,
    close: async () => {
      await db.destroy();
      await cluster?.stop();
    },
  };
}
