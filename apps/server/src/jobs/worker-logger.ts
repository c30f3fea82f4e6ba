import { Logger } from 'graphile-worker';

type Log = {
  error: (object: object, message: string) => void;
  warn: (object: object, message: string) => void;
  info: (object: object, message: string) => void;
  debug: (object: object, message: string) => void;
};

/** graphile-worker's messages through our log, with its scope (task, job id) as fields. */
export function workerLogger(log: Log): Logger {
  return new Logger((scope) => (level: string, message: string, meta?: unknown) => {
    const fields = { ...scope, ...(meta as object | undefined) };
    // graphile-worker's levels: error, warning, info, debug.
    if (level === 'error') log.error(fields, message);
    else if (level === 'warning') log.warn(fields, message);
    else if (level === 'info') log.info(fields, message);
    else log.debug(fields, message);
  });
}

/** For the migration run, which has nothing worth saying unless it fails (and then it throws). */
export const quietWorkerLogger = new Logger(() => () => {});
