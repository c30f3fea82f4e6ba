import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import type { Database } from './schema.ts';

export type Db = Kysely<Database>;

const pools = new WeakMap<Db, pg.Pool>();

/**
 * The pg pool behind a Db, for the few things Kysely cannot do, such as streaming `COPY … TO
 * STDOUT`; a client taken from it must be released like any other.
 */
export function poolOf(db: Db): pg.Pool {
  const pool = pools.get(db);
  if (!pool) throw new Error('This Db was not made by createDatabase');
  return pool;
}

export function createDatabase(connectionString: string, maxConnections = 10): Db {
  const pool = new pg.Pool({ connectionString, max: maxConnections });
  // An idle connection dropped by the server (a restart, or shutdown racing the embedded
  // cluster's own exit hook) must not crash the process; the pool replaces it on next use.
  pool.on('error', (error) => console.warn(`PostgreSQL connection lost: ${error.message}`));
  // The same for a connection lost while checked out (graphile-worker holds one for LISTEN): the
  // query on it fails, and the process must not crash on the unhandled 'error' event.
  pool.on('connect', (client) => {
    client.on('error', (error) => console.warn(`PostgreSQL connection lost: ${error.message}`));
  });
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  pools.set(db, pool);
  return db;
}

export async function pingDatabase(db: Db): Promise<void> {
  await sql`select 1`.execute(db);
}
