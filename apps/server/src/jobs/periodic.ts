import type { Task } from 'graphile-worker';
import type { Db } from '../db/database.ts';
import { type SystemContext, systemContext } from '../http/request-context.ts';
import { claimPeriodicRun, schedulePeriodicPass } from './job-queue.repo.ts';

type Log = {
  warn: (object: object, message: string) => void;
  debug: (object: object, message: string) => void;
};

/**
 * A pass that runs every `intervalMs` across all server processes together, not in each: a
 * graphile-worker job keyed by its task name, that schedules its successor before it runs.
 * graphile-worker's crontab cannot go below a minute, and the invoice expiry sweep runs every
 * few seconds (docs/decisions/0016-background-jobs.md). It runs under a system context named by
 * its task (`system:<task>`), so what it audits names it.
 */
export type PeriodicPass = { task: string; intervalMs: number; run: (ctx: SystemContext) => Promise<unknown> };

/**
 * The pass as a task. It starts only when its interval has passed since the last start of any
 * runner's (`claimPeriodicRun`), so a job handed back from a runner that died inside the pass does
 * not run it again within the interval, and a process that dies inside the pass leaves the next run
 * scheduled. A failed pass is logged and not retried: the next run is the retry. Only a failure to
 * claim or schedule fails the job, so graphile-worker retries it.
 */
export function periodicTask(pass: PeriodicPass, deps: { db: Db; log: Log }): Task {
  return async () => {
    const startedAt = await claimPeriodicRun(deps.db, pass.task, pass.intervalMs);
    if (!startedAt) return;
    // The start as the database recorded it: which process ran each pass, and when.
    deps.log.debug({ task: pass.task, startedAt: startedAt.toISOString() }, 'periodic pass started');
    try {
      await pass.run(systemContext(pass.task));
    } catch (error) {
      deps.log.warn({ err: error, task: pass.task }, 'periodic pass failed; its next run is the retry');
    }
  };
}

/** Schedules each pass's first run unless some process already did. */
export async function schedulePeriodicPasses(db: Db, passes: readonly PeriodicPass[]): Promise<void> {
  for (const pass of passes) await schedulePeriodicPass(db, pass.task);
}
