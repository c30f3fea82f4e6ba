import { sql } from 'kysely';
import type pg from 'pg';
import type { Db } from '../db/database.ts';

/**
 * The first key of the two-key advisory locks job runners hold (`pg_advisory_lock(int, int)`), so
 * they cannot meet a lock someone takes with one bigint key: "Rayo" in ASCII.
 */
const RUNNER_LOCK_CLASS = 0x5261796f;

/**
 * A job whose `locked_by` names no registered runner was taken by a runner killed in the moment
 * between creating its pool and registering it, or by a Rayo from before runners registered; after
 * this long it is handed back. A registered runner's jobs go back as soon as its session ends.
 */
const UNREGISTERED_LOCK_GRACE = '5 minutes';

export type RunnerIdentity = { poolId: string; host: string; pid: number };

/**
 * Takes a fresh key and holds its session advisory lock on `session`, a connection the runner keeps
 * for its life: PostgreSQL releases the lock when that session ends, whether the process shut down,
 * crashed or was killed.
 */
export async function lockRunnerKey(session: pg.ClientBase): Promise<number> {
  const { rows } = await session.query<{ key: number }>(`select nextval('job_runner_lock_keys')::int as key`);
  const key = (rows[0] as { key: number }).key;
  await session.query('select pg_advisory_lock($1, $2)', [RUNNER_LOCK_CLASS, key]);
  return key;
}

/** Names the pool whose jobs `lockKey`'s holder runs, replacing a registration of it under an older key. */
export async function registerRunner(session: pg.ClientBase, runner: RunnerIdentity, lockKey: number): Promise<void> {
  await session.query(
    `insert into job_runners (pool_id, lock_key, host, pid) values ($1, $2, $3, $4)
     on conflict (pool_id) do update set lock_key = excluded.lock_key`,
    [runner.poolId, lockKey, runner.host, runner.pid],
  );
}

export async function deregisterRunner(session: pg.ClientBase, poolId: string): Promise<void> {
  await session.query('delete from job_runners where pool_id = $1', [poolId]);
}

/**
 * Hands back the jobs of runners that are gone: a registered runner whose lock is free (its session
 * ended), and an unknown pool's jobs locked longer than the grace. A live runner's lock is held by
 * its own session, so trying it fails here, the sweeper's own included. Answers the pools and how
 * many jobs they held.
 */
export async function releaseDeadRunners(db: Db): Promise<{ poolIds: string[]; jobs: number }> {
  const { rows } = await sql<{ poolIds: string[]; jobs: number }>`
    with dead as (
      delete from job_runners where pg_try_advisory_xact_lock(${RUNNER_LOCK_CLASS}, lock_key) returning pool_id
    ), gone as (
      select pool_id from dead
      union
      select distinct j.locked_by from graphile_worker._private_jobs j
      where j.locked_by is not null and j.locked_at < now() - ${UNREGISTERED_LOCK_GRACE}::interval
        and not exists (select 1 from job_runners r where r.pool_id = j.locked_by)
    ), pools as (
      select coalesce(array_agg(pool_id), '{}') as ids from gone
    )
    select pools.ids as "poolIds",
      (select count(*)::int from graphile_worker._private_jobs where locked_by = any(pools.ids)) as jobs,
      graphile_worker.force_unlock_workers(pools.ids)
    from pools`.execute(db);
  const row = rows[0] as { poolIds: string[]; jobs: number };
  return { poolIds: row.poolIds, jobs: row.jobs };
}

/**
 * Schedules a periodic pass's first run unless some process already did: `unsafe_dedupe` leaves a
 * job with the key alone, even a running one (which has scheduled its successor already).
 */
export async function schedulePeriodicPass(db: Db, task: string): Promise<void> {
  await sql`select graphile_worker.add_job(
    ${task}, '{}'::json, job_key => ${task}, job_key_mode => 'unsafe_dedupe'
  )`.execute(db);
}

/**
 * Starts a run of the pass `task` if its last run started at least `intervalMs` ago, on the
 * database's clock, and in the same statement schedules the next run one interval after the last
 * start. The key keeps one pending run at most; a running job's key passes to its successor.
 * Answers the run's start, or null when the pass ran less than an interval ago (a job handed back
 * from a runner that died inside it): that run stands, and the next one is already due after it.
 */
export async function claimPeriodicRun(db: Db, task: string, intervalMs: number): Promise<Date | null> {
  const interval = sql`${intervalMs} * interval '1 millisecond'`;
  const { rows } = await sql<{ startedAt: Date | null }>`
    with claim as (
      insert into periodic_pass_runs as runs (task, started_at) values (${task}, now())
      on conflict (task) do update set started_at = now() where runs.started_at <= now() - ${interval}
      returning started_at
    ), last as (
      select coalesce((select started_at from claim), (select started_at from periodic_pass_runs where task = ${task}))
        as started_at
    )
    select (select started_at from claim) as "startedAt",
      graphile_worker.add_job(
        ${task}, '{}'::json, run_at => last.started_at + ${interval}, job_key => ${task}, job_key_mode => 'replace'
      )
    from last`.execute(db);
  return rows[0]?.startedAt ?? null;
}

export type JobQueueRow = { task: string; depth: number; oldestSeconds: number };

/**
 * Jobs due now that have attempts left, by task, with how long the oldest has waited: a queue
 * that grows or ages says the workers cannot keep up or are stuck. Read through graphile-worker's
 * public `jobs` view.
 */
export async function readJobQueue(db: Db, now = new Date()): Promise<JobQueueRow[]> {
  const { rows } = await sql<{ task: string; depth: string; oldest_seconds: number }>`
    select task_identifier as task, count(*) as depth,
      extract(epoch from ${now}::timestamptz - min(run_at))::float8 as oldest_seconds
    from graphile_worker.jobs
    where run_at <= ${now} and attempts < max_attempts
    group by task_identifier`.execute(db);
  return rows.map((row) => ({ task: row.task, depth: Number(row.depth), oldestSeconds: row.oldest_seconds }));
}
