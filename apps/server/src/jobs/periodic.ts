import type { JobHelpers, Task } from 'graphile-worker';
import { sql } from 'kysely';
import type { Db } from '../db/database.ts';

type Log = { warn: (object: object, message: string) => void };

/**
 * A pass that runs every `intervalMs` across all server processes together, not in each: a
 * graphile-worker job keyed by its task name, that schedules its successor before it runs.
 * graphile-worker's crontab cannot go below a minute, and the invoice expiry sweep runs every
 * few seconds (docs/decisions.md "Background jobs").
 */
export type PeriodicPass = { task: string; intervalMs: number; run: () => Promise<unknown> };

/**
 * The pass as a task. The successor is scheduled first, so a process that dies inside the pass
 * leaves the next run scheduled; the job key keeps one pending run at most (the running job's key
 * is released to the successor). A failed pass is logged and not retried: the next run is the
 * retry. Only a failure to schedule the successor fails the job, so graphile-worker retries it.
 */
export function periodicTask(pass: PeriodicPass, log: Log): Task {
  return async (_payload, helpers: JobHelpers) => {
    await helpers.addJob(
      pass.task,
      {},
      { jobKey: pass.task, jobKeyMode: 'replace', runAt: new Date(Date.now() + pass.intervalMs) },
    );
    try {
      await pass.run();
    } catch (error) {
      log.warn({ err: error, task: pass.task }, `${pass.task} failed`);
    }
  };
}

/**
 * Schedules each pass's first run unless some process already did: `unsafe_dedupe` leaves a job
 * with the key alone, even a running one (which has scheduled its successor already).
 */
export async function schedulePeriodicPasses(db: Db, passes: readonly PeriodicPass[]): Promise<void> {
  for (const pass of passes) {
    await sql`select graphile_worker.add_job(
      ${pass.task}, '{}'::json, job_key => ${pass.task}, job_key_mode => 'unsafe_dedupe'
    )`.execute(db);
  }
}
