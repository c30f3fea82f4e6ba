import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // Every server process's job runner, so that the jobs a dead one held are handed back at once
  // instead of after graphile-worker's four-hour lock (docs/decisions/0016-background-jobs.md). A live
  // runner holds a session advisory lock on its `lock_key`, which PostgreSQL releases when its
  // session ends, however the process ended.
  await sql`create sequence job_runner_lock_keys as integer cycle`.execute(db);
  await db.schema
    .createTable('job_runners')
    // graphile-worker's pool id, which its jobs name in `locked_by`.
    .addColumn('pool_id', 'text', (c) => c.primaryKey())
    .addColumn('lock_key', 'integer', (c) => c.notNull())
    .addColumn('host', 'text', (c) => c.notNull())
    .addColumn('pid', 'integer', (c) => c.notNull())
    .addColumn('started_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  // When each periodic pass last started, on the database's clock: a run starts only once its
  // interval has passed since the last, however many runners hold a job for it.
  await db.schema
    .createTable('periodic_pass_runs')
    .addColumn('task', 'text', (c) => c.primaryKey())
    .addColumn('started_at', 'timestamptz', (c) => c.notNull())
    .execute();
}
