import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import type { Database } from './schema.ts';

export type Db = Kysely<Database>;

export function createDatabase(connectionString: string, maxConnections = 10): Db {
  const pool = new pg.Pool({ connectionString, max: maxConnections });
  // An idle connection dropped by the server (a restart, or shutdown racing the embedded
  // cluster's own exit hook) must not crash the process; the pool replaces it on next use.
  pool.on('error', (error) => console.warn(`PostgreSQL connection lost: ${error.message}`));
  return new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
}

export async function pingDatabase(db: Db): Promise<void> {
  await sql`select 1`.execute(db);
}
