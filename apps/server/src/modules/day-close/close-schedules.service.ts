import {
  AppError,
  type CloseSchedule,
  type CloseScheduleInput,
  type CloseScheduleList,
  CloseScheduleSchema,
} from '@rayo/shared';
import type { Mailer } from '../../adapters/mail/mailer.ts';
import type { Db } from '../../db/database.ts';
import type { Clock } from '../../domain/clock.ts';
import { closePeriodOf } from '../../domain/day-close.ts';
import { findAccount, listAccounts } from '../accounts/accounts.repo.ts';
import { organizationOf } from '../accounts/accounts.service.ts';
import type { AccessClaims } from '../auth/tokens.ts';
import { insertNotification } from '../notifications/notifications.repo.ts';
import { findCurrentOrganization } from '../organizations/organizations.repo.ts';
import { closeMail } from './close-mails.ts';
import {
  type CloseScheduleRow,
  deleteCloseSchedule,
  findCloseReportRun,
  insertCloseSchedule,
  listCloseSchedules,
  markCloseReportSent,
  queueDueCloseReports,
} from './close-schedules.repo.ts';
import { readClose } from './day-close.service.ts';

function toSchedule(row: CloseScheduleRow): CloseSchedule {
  return CloseScheduleSchema.parse({ ...row, account: row.accountId ?? 'all' });
}

export async function listCloseSchedulesOf(db: Db, caller: AccessClaims): Promise<CloseScheduleList> {
  return { schedules: (await listCloseSchedules(db, organizationOf(caller))).map(toSchedule) };
}

export async function createCloseSchedule(
  db: Db,
  caller: AccessClaims,
  input: CloseScheduleInput,
  now: Date,
): Promise<CloseSchedule> {
  const organizationId = organizationOf(caller);
  const accountId = input.account === 'all' ? null : input.account;
  if (accountId !== null && !(await findAccount(db, organizationId, accountId))) {
    throw new AppError('InvalidInput', 'account: no such account in this organization');
  }
  const row = await insertCloseSchedule(db, {
    organizationId,
    userId: caller.userId,
    accountId,
    frequency: input.frequency,
    time: input.time,
    managers: input.managers,
    createdAt: now,
  });
  return toSchedule(row);
}

export async function removeCloseSchedule(db: Db, caller: AccessClaims, id: string): Promise<void> {
  if (!(await deleteCloseSchedule(db, organizationOf(caller), id))) {
    throw new AppError('NotFound', 'Schedule not found');
  }
}

export type CloseReportKey = { scheduleId: string; lastDay: string; userId: string };

/** Queues the scheduled closes due at `now` (see `queueDueCloseReports`). */
export function queueCloseReports(db: Db, now: Date): Promise<number> {
  return queueDueCloseReports(db, now);
}

/**
 * Mails one scheduled close to one recipient: the admin who made the schedule sees its accounts,
 * a manager only those of them linked to them. A mail that fails throws, so the job is tried again
 * later; its first failure (`attempt` 1) is also a back-office notification. A mail already sent
 * (a retry after the sent mark failed) is not sent again.
 */
export async function sendCloseReport(
  deps: { db: Db; mailer: Mailer; clock: Clock },
  key: CloseReportKey,
  attempt: number,
): Promise<void> {
  const run = await findCloseReportRun(deps.db, key);
  if (!run || run.sentAt) return;
  const organization = await findCurrentOrganization(deps.db, run.organizationId);
  if (!organization) return;
  let accountIds = run.accountId === null ? null : [run.accountId];
  if (run.role === 'manager') {
    const linked = (await listAccounts(deps.db, run.organizationId, run.recipientId)).map((account) => account.id);
    accountIds = accountIds === null ? linked : accountIds.filter((id) => linked.includes(id));
    if (accountIds.length === 0) return;
  }
  const close = await readClose(deps.db, {
    organization,
    accountIds,
    bptId: null,
    ...closePeriodOf(run.frequency, key.lastDay),
  });
  const mail = closeMail(run.email, run.language, {
    organizationName: run.organizationName,
    frequency: run.frequency,
    close,
  });
  try {
    await deps.mailer.send(mail);
  } catch (error) {
    if (attempt === 1) {
      await insertNotification(deps.db, {
        organizationId: run.organizationId,
        kind: 'close.report_failed',
        payload: { scheduleId: key.scheduleId, lastDay: key.lastDay, to: run.email, frequency: run.frequency },
      });
    }
    throw error;
  }
  await markCloseReportSent(deps.db, key, deps.clock());
}
