import { Logger } from 'graphile-worker';

type Log = {
  error: (object: object, message: string) => void;
  warn: (object: object, message: string) => void;
  info: (object: object, message: string) => void;
  debug: (object: object, message: string) => void;
};

type FailureMeta = { failure?: boolean; success?: boolean; job?: { attempts: number; max_attempts: number } };

/**
 * A job that failed but will be tried again (a webhook receiver that is down) is expected
 * weather, logged as a warning; only its last failure is an error.
 */
function isRetried(meta: unknown): boolean {
  const { failure, job } = (meta ?? {}) as FailureMeta;
  return failure === true && job !== undefined && job.attempts < job.max_attempts;
}

/**
 * What follows a warning or an error of graphile-worker's, whose own words say only what happened;
 * docs/operations.md says what to do about each.
 */
function whatFollows(meta: unknown): string {
  if ((meta as FailureMeta | undefined)?.failure !== true) return 'jobs go on: if this repeats, check PostgreSQL';
  return isRetried(meta) ? 'it is tried again later' : 'it is not tried again';
}

/**
 * A job that ran (graphile-worker's 'Completed task …'): the periodic passes finish one every few
 * seconds, which at `info` would bury the lines a person needs to see.
 */
function isRoutineSuccess(meta: unknown): boolean {
  return (meta as FailureMeta | undefined)?.success === true;
}

/** graphile-worker's messages through our log, with its scope (task, job id) as fields. */
export function workerLogger(log: Log): Logger {
  return new Logger((scope) => (level: string, message: string, meta?: unknown) => {
    const fields = { ...scope, ...(meta as object | undefined) };
    // graphile-worker's levels: error, warning, info, debug.
    if (level === 'error' && !isRetried(meta)) log.error(fields, `${message}; ${whatFollows(meta)}`);
    else if (level === 'error' || level === 'warning') log.warn(fields, `${message}; ${whatFollows(meta)}`);
    else if (level === 'info' && !isRoutineSuccess(meta)) log.info(fields, message);
    else log.debug(fields, message);
  });
}

/** For the migration run, which has nothing worth saying unless it fails (and then it throws). */
export const quietWorkerLogger = new Logger(() => () => {});
