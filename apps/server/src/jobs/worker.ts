import { EventEmitter } from 'node:events';
import os from 'node:os';
import { run, type TaskList, type WorkerEvents } from 'graphile-worker';
import pg from 'pg';
import type { Db } from '../db/database.ts';
import {
  deregisterRunner,
  lockRunnerKey,
  type RunnerIdentity,
  registerRunner,
  releaseDeadRunners,
} from './job-queue.repo.ts';
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
/** How often each process looks for runners that died holding jobs. */
const SWEEP_INTERVAL_MS = 2000;
const RECONNECT_DELAY_MS = 1000;

/**
 * Starts this process's graphile-worker runner on the shared job queue: every server process runs
 * one, and each job runs in one of them (docs/decisions/0016-background-jobs.md). The runner is
 * registered under a session advisory lock, and every process hands back the jobs of runners whose
 * lock is free, so a process killed holding a job does not hold it for graphile-worker's four
 * hours. Returns its stop, which waits for running jobs to finish.
 */
export async function startJobWorker(options: JobWorkerOptions): Promise<() => Promise<void>> {
  const { log } = options;
  const taskList: TaskList = { ...options.tasks };
  for (const pass of options.periodic) taskList[pass.task] = periodicTask(pass, options);
  const claim = await holdRunnerClaim(options.databaseUrl, log);
  // The pool is named the moment it is created, before its workers ask for a job.
  const events: WorkerEvents = new EventEmitter();
  events.once('pool:create', ({ workerPool }) => {
    claim.register({ poolId: workerPool.id, host: os.hostname(), pid: process.pid });
  });
  let runner: Awaited<ReturnType<typeof run>>;
  try {
    runner = await run({
      connectionString: options.databaseUrl,
      // The LISTEN connection, plus one per concurrent job.
      maxPoolSize: CONCURRENCY + 2,
      concurrency: CONCURRENCY,
      pollInterval: options.pollIntervalMs ?? POLL_INTERVAL_MS,
      noHandleSignals: true,
      logger: workerLogger(log),
      taskList,
      events,
    });
    await claim.registered();
  } catch (error) {
    await claim.release();
    throw error;
  }
  const sweep = () =>
    releaseDeadRunners(options.db).then(
      ({ poolIds, jobs }) => {
        if (poolIds.length > 0)
          log.warn({ poolIds, jobs }, 'handed back the jobs of job runners that are gone; the other runners take them');
      },
      (error: unknown) =>
        log.warn({ err: error }, 'could not look for job runners that are gone; it looks again in 2 seconds'),
    );
  await sweep();
  const sweeper = setInterval(sweep, SWEEP_INTERVAL_MS);
  sweeper.unref();
  await schedulePeriodicPasses(options.db, options.periodic);
  return async () => {
    clearInterval(sweeper);
    await runner.stop();
    await claim.release();
  };
}

type RunnerClaim = {
  register: (runner: RunnerIdentity) => void;
  /** Resolves once the runner is registered, or rejects with why it could not be. */
  registered: () => Promise<void>;
  /** Deregisters the runner and ends the session, which frees its lock. */
  release: () => Promise<void>;
};

/**
 * The session that holds a runner's advisory lock for the process's life. When the session is
 * lost (PostgreSQL restarted, the network cut), other processes see the lock free and hand the
 * runner's jobs back; a new session takes a new lock and registers the runner again.
 */
async function holdRunnerClaim(connectionString: string, log: Log): Promise<RunnerClaim> {
  let session: pg.Client | null = null;
  let identity: RunnerIdentity | undefined;
  let registration: Promise<void> = Promise.resolve();
  let closed = false;
  let reconnectTimer: NodeJS.Timeout | undefined;

  const connect = async (): Promise<{ client: pg.Client; key: number }> => {
    const client = new pg.Client({ connectionString, application_name: 'rayo job runner' });
    const lost = (error?: Error) => {
      if (closed || session !== client) return;
      session = null;
      log.warn({ err: error }, 'the job runner lost its database session; registering again');
      client.end().catch(() => {});
      const retry = () => {
        reconnectTimer = setTimeout(() => {
          connect()
            .then(({ client: next, key }) => (identity ? registerRunner(next, identity, key) : undefined))
            .catch((err: unknown) => {
              log.warn({ err }, 'could not register the job runner again; it tries again in a second');
              session?.end().catch(() => {});
              session = null;
              retry();
            });
        }, RECONNECT_DELAY_MS);
      };
      retry();
    };
    client.on('error', lost);
    client.on('end', () => lost());
    session = client;
    await client.connect();
    return { client, key: await lockRunnerKey(client) };
  };

  const first = await connect();
  return {
    register: (runner) => {
      identity = runner;
      registration = registerRunner(first.client, runner, first.key);
      // Awaited by registered(); a rejection left unobserved until then must not crash the process.
      registration.catch(() => {});
    },
    registered: () => registration,
    release: async () => {
      closed = true;
      clearTimeout(reconnectTimer);
      const current = session;
      session = null;
      if (!current) return;
      if (identity) await deregisterRunner(current, identity.poolId).catch(() => {});
      await current.end().catch(() => {});
    },
  };
}
