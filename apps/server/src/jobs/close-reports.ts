import type { Task } from 'graphile-worker';
import { z } from 'zod';
import type { Mailer } from '../adapters/mail/mailer.ts';
import type { Db } from '../db/database.ts';
import type { Clock } from '../domain/clock.ts';
import { queueCloseReports, sendCloseReport } from '../modules/day-close/close-schedules.service.ts';
import type { PeriodicPass } from './periodic.ts';

export { SEND_CLOSE_REPORT_TASK } from '../modules/day-close/close-schedules.repo.ts';

/** How often the servers together look for closes due: closing times are to the minute. */
const CLOSE_PASS_INTERVAL_MS = 60_000;

/** The pass that queues the scheduled closes due at the clock's time, once across all servers. */
export function closeReportsPass(deps: { db: Db; clock: Clock }): PeriodicPass {
  return {
    task: 'queue-close-reports',
    intervalMs: CLOSE_PASS_INTERVAL_MS,
    run: () => queueCloseReports(deps.db, deps.clock()),
  };
}

const PayloadSchema = z.object({ scheduleId: z.uuid(), lastDay: z.string(), userId: z.uuid() });

/**
 * One try at mailing a scheduled close. A failed try throws, and graphile-worker tries again with
 * its exponential backoff up to the job's max_attempts (close-schedules.repo.ts).
 */
export function sendCloseReportTask(deps: { db: Db; mailer: Mailer; clock: Clock }): Task {
  return async (payload, helpers) => {
    await sendCloseReport(deps, PayloadSchema.parse(payload), helpers.job.attempts);
  };
}
