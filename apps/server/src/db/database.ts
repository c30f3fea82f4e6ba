import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import type { Database } from './schema.ts';

export type Db = Kysely<Database>;

/**
 * A connection that may only be read from: the replica of `DATABASE_READ_URL`, or the primary when
 * there is none. A `Db` passes where a `ReadDb` is asked for, never the other way round, so a
 * function that writes cannot be handed the replica.
 */
export type ReadDb = Omit<
  Db,
  'insertInto' | 'replaceInto' | 'updateTable' | 'deleteFrom' | 'mergeInto' | 'transaction'
>;

/** Which server a pool reaches: the primary takes every write, a replica only reads. */
export type PoolRole = 'primary' | 'replica';

/** Told of a connection the server dropped; the pool opens a new one at its next use. */
export type ConnectionLossHandler = (error: Error, role: PoolRole) => void;

type PoolUse = { pool: pg.Pool; role: PoolRole; queries: number; onLost: ConnectionLossHandler };

/** Until a process has a log (the command-line tools have none), a lost connection is printed. */
const printLoss: ConnectionLossHandler = (error) => console.warn(`PostgreSQL connection lost: ${error.message}`);

const pools = new WeakMap<ReadDb, PoolUse>();

function useOf(db: ReadDb): PoolUse {
  const use = pools.get(db);
  if (!use) throw new Error('This Db was not made by createDatabase');
  return use;
}

/**
 * The pg pool behind a Db, for the few things Kysely cannot do, such as streaming `COPY … TO
 * STDOUT`; a client taken from it must be released like any other.
 */
export function poolOf(db: ReadDb): pg.Pool {
  return useOf(db).pool;
}

/** Which server `db` reaches and how many statements it has sent there, for metrics and tests. */
export function poolUse(db: ReadDb): { role: PoolRole; queries: number } {
  const { role, queries } = useOf(db);
  return { role, queries };
}

/** Sends the connections `db` loses to `handler`: the server's log, once the runtime has one. */
export function onConnectionLost(db: ReadDb, handler: ConnectionLossHandler): void {
  useOf(db).onLost = handler;
}

export function createDatabase(connectionString: string, maxConnections = 10, role: PoolRole = 'primary'): Db {
  const pool = new pg.Pool({ connectionString, max: maxConnections });
  const use: PoolUse = { pool, role, queries: 0, onLost: printLoss };
  // An idle connection dropped by the server (a restart, or shutdown racing the embedded
  // cluster's own exit hook) must not crash the process; the pool replaces it on next use.
  pool.on('error', (error) => use.onLost(error, role));
  pool.on('connect', (client) => {
    // The same for a connection lost while checked out (graphile-worker holds one for LISTEN): the
    // query on it fails, and the process must not crash on the unhandled 'error' event.
    client.on('error', (error) => use.onLost(error, role));
    // Counted on the client, not in Kysely, so that raw work on the pool (a CSV's COPY) counts too.
    const query = client.query;
    client.query = function (this: pg.PoolClient, ...args: unknown[]) {
      use.queries++;
      return (query as (...a: unknown[]) => unknown).apply(this, args);
    } as typeof client.query;
  });
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  pools.set(db, use);
  return db;
}

export async function pingDatabase(db: ReadDb): Promise<void> {
  await sql`select 1`.execute(db);
}

/**
 * How far a replica's data is behind its primary, in seconds: none once it has replayed all the
 * WAL it received, else the age of the last transaction it replayed. A quiet primary sends
 * nothing, so an old replayed transaction alone is not lag.
 */
export async function readReplayLag(db: ReadDb): Promise<number> {
  const { rows } = await sql<{ seconds: number }>`
    select case when pg_last_wal_receive_lsn() = pg_last_wal_replay_lsn() then 0
      else coalesce(extract(epoch from now() - pg_last_xact_replay_timestamp()), 0) end::float8 as seconds
  `.execute(db);
  return Number(rows[0]?.seconds ?? 0);
}

/** PostgreSQL's unique_violation (23505): a row a unique index already holds. */
export function isUniqueViolation(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === '23505';
}
