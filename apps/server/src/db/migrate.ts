import { runMigrations } from 'graphile-worker';
import { type Kysely, Migrator } from 'kysely';
import { quietWorkerLogger } from '../jobs/worker-logger.ts';
import { poolOf } from './database.ts';
import { migrations } from './migrations/index.ts';
import type { Database } from './schema.ts';

/**
 * Applies every pending migration; Kysely holds an advisory lock so concurrent boots are safe.
 * graphile-worker's own schema is migrated at the same time on another connection, as none of
 * our migrations touches it (it detects a concurrent boot migrating it too); code enqueues jobs
 * with `graphile_worker.add_job` inside our transactions, so both are done before this returns.
 */
export async function migrateToLatest(db: Kysely<Database>): Promise<string[]> {
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
  const [ours, worker] = await Promise.allSettled([
    migrator.migrateToLatest(),
    runMigrations({ pgPool: poolOf(db), logger: quietWorkerLogger }),
  ]);
  if (ours.status === 'rejected') throw ours.reason;
  const { error, results } = ours.value;
  if (error) throw error instanceof Error ? error : new Error(String(error));
  if (worker.status === 'rejected') throw worker.reason;
  return (results ?? []).map((result) => result.migrationName);
}
