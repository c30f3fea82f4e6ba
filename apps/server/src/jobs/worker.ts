import { run, type TaskList } from 'graphile-worker';
import type { Db } from '../db/database.ts';
import { type PeriodicPass, periodicTask, schedulePeriodicPasses } from './periodic.ts';
import { workerLogger } from './worker-logger.ts';

type Log = Parameters<typeof workerLogger>[0];

export type JobWorkerOptions = {
  db: Db;
  /** The same PostgreSQL as `db`; the worker keeps its own few connections, one of them LISTENing. */
  databaseUrl: string;
  log: Log;
  tasks: TaskList;
  periodic: readonly PeriodicPass[];
  /** How often jobs due later (retries, periodic passes) are looked for; new jobs arrive by NOTIFY. */
  pollIntervalMs?: number;
};

/** Jobs one process runs at once: deliveries wait on merchants' servers, passes on PostgreSQL. */
const CONCURRENCY = 2;
const POLL_INTERVAL_MS = 1000;

/**
 * Starts this process's graphile-worker runner on the shared job queue: every server process runs
 * one, and each job runs in one of them (docs/decisions.md "Background jobs"). Returns its stop,
 * which waits for running jobs to finish.
 */
export async function startJobWorker(options: JobWorkerOptions): Promise<() => Promise<void>> {
  const taskList: TaskList = { ...options.tasks };
  for (const pass of options.periodic) taskList[pass.task] = periodicTask(pass, options.log);
  const runner = await run({
    connectionString: options.databaseUrl,
    // The LISTEN connection, plus one per concurrent job.
    maxPoolSize: CONCURRENCY + 2,
    concurrency: CONCURRENCY,
    pollInterval: options.pollIntervalMs ?? POLL_INTERVAL_MS,
    noHandleSignals: true,
    logger: workerLogger(options.log),
    taskList,
  });
  await schedulePeriodicPasses(options.db, options.periodic);
  return () => runner.stop();
}
