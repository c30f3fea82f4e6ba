import { type Kysely, Migrator } from 'kysely';
import { migrations } from './migrations/index.ts';
import type { Database } from './schema.ts';

/** Applies every pending migration; Kysely holds an advisory lock so concurrent boots are safe. */
export async function migrateToLatest(db: Kysely<Database>): Promise<string[]> {
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).map((result) => result.migrationName);
}
