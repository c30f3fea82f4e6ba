import { runMigrations } from 'graphile-worker';
import { type Kysely, Migrator } from 'kysely';
import { quietWorkerLogger } from '../jobs/worker-logger.ts';
import { poolOf } from './database.ts';
import { migrations } from './migrations/index.ts';
import type { Database } from './schema.ts';

/**
 * Applies every pending migration; Kysely holds an advisory lock so concurrent boots are safe.
 * graphile-worker's own schema follows, since code enqueues jobs with `graphile_worker.add_job`
 * inside our transactions (graphile-worker detects a concurrent boot migrating it too).
 */
export async function migrateToLatest(db: Kysely<Database>): Promise<string[]> {
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  await runMigrations({ pgPool: poolOf(db), logger: quietWorkerLogger });
  return (results ?? []).map((result) => result.migrationName);
}
