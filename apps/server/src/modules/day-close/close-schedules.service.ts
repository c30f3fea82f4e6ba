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
import type { RequestContext } from '../../http/request-context.ts';
import { findOrganizationAccount, listOrganizationAccounts, organizationOf } from '../accounts/accounts.service.ts';
import { type AuditAction, audit } from '../audit/audit.service.ts';
import type { AccessClaims } from '../auth/tokens.ts';
import { notifyBackOffice } from '../notifications/notifications.service.ts';
import { findCurrentOrganization } from '../organizations/organizations.service.ts';
import { closeMail } from './close-mails.ts';
import { closePdf } from './close-pdf.ts';
import {
  type CloseScheduleRow,
  claimCloseReportRun,
  deleteCloseSchedule,
  findCloseReportRun,
  insertCloseSchedule,
  listCloseSchedules,
  markCloseReportSent,
  queueDueCloseReports,
  releaseCloseReportRun,
} from './close-schedules.repo.ts';
import { closeCsv, closeFileName, readClose } from './day-close.service.ts';

/**
 * How long a claimed mail is left to its sender before another try may send it: far longer than
 * an SMTP hand-over takes, far shorter than graphile-worker's lock on a job whose process died.
 */
export const CLOSE_REPORT_CLAIM_LEASE_MS = 10 * 60_000;

/** The left part of the Message-ID every sending of one mail carries. */
export function closeReportMessageId(key: CloseReportKey): string {
  return `close.${key.scheduleId}.${key.lastDay}.${key.userId}`;
}

function toSchedule(row: CloseScheduleRow): CloseSchedule {
  return CloseScheduleSchema.parse({ ...row, account: row.accountId ?? 'all' });
}

export async function listCloseSchedulesOf(db: Db, caller: AccessClaims): Promise<CloseScheduleList> {
  return { schedules: (await listCloseSchedules(db, organizationOf(caller))).map(toSchedule) };
}

/** What the audit log keeps of a schedule: when, for what and to whom it mails. */
function audited(schedule: CloseSchedule): Record<string, unknown> {
  return {
    account: schedule.account,
    frequency: schedule.frequency,
    time: schedule.time,
    managers: schedule.managers,
    email: schedule.email,
  };
}

/** One audit row, written in the transaction of the change it records. */
async function auditScheduleChange(
  ctx: RequestContext,
  trx: Db,
  change: { action: AuditAction; schedule: CloseSchedule },
): Promise<void> {
  const created = change.action === 'close.schedule_created';
  await audit(ctx, trx, change.action, {
    organizationId: ctx.organizationId,
    target: `close_schedule:${change.schedule.id}`,
    before: created ? null : audited(change.schedule),
    after: created ? audited(change.schedule) : null,
  });
}

export async function createCloseSchedule(
  ctx: RequestContext,
  db: Db,
  input: CloseScheduleInput,
  now: Date,
): Promise<CloseSchedule> {
  const organizationId = organizationOf(ctx);
  const accountId = input.account === 'all' ? null : input.account;
  if (accountId !== null && !(await findOrganizationAccount(db, organizationId, accountId))) {
    throw new AppError('InvalidInput', 'account: no such account in this organization');
  }
  return db.transaction().execute(async (trx) => {
    const schedule = toSchedule(
      await insertCloseSchedule(trx, {
        organizationId,
        userId: ctx.userId,
        accountId,
        frequency: input.frequency,
        time: input.time,
        managers: input.managers,
        createdAt: now,
      }),
    );
    await auditScheduleChange(ctx, trx, { action: 'close.schedule_created', schedule });
    return schedule;
  });
}

export async function removeCloseSchedule(ctx: RequestContext, db: Db, id: string): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const removed = await deleteCloseSchedule(trx, organizationOf(ctx), id);
    if (!removed) throw new AppError('NotFound', 'Schedule not found');
    await auditScheduleChange(ctx, trx, { action: 'close.schedule_deleted', schedule: toSchedule(removed) });
  });
}

export type CloseReportKey = { scheduleId: string; lastDay: string; userId: string };

/** Queues the scheduled closes due at `now` (see `queueDueCloseReports`). */
export function queueCloseReports(db: Db, now: Date): Promise<number> {
  return queueDueCloseReports(db, now);
}

/**
 * Mails one scheduled close to one recipient: the admin who made the schedule sees its accounts,
 * a manager only those of them linked to them; the CSV and the PDF (in the recipient's language)
 * are attached. The mail is claimed just before it goes to the mail server and marked sent just
 * after (docs/decisions 0060): a sender that died in between leaves a claim, and the try after
 * its lease sends the mail again with the same Message-ID, marked as a possible repeat. A mail
 * that fails throws, so the job is tried again later; its first failure (`attempt` 1) is also a
 * back-office notification.
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
    const linked = (await listOrganizationAccounts(deps.db, run.organizationId, run.recipientId)).map(
      (account) => account.id,
    );
    accountIds = accountIds === null ? linked : accountIds.filter((id) => linked.includes(id));
    if (accountIds.length === 0) return;
  }
  const close = await readClose(deps.db, {
    organization,
    accountIds,
    bptId: null,
    ...closePeriodOf(run.frequency, key.lastDay),
  });
  const attachments = [
    { filename: closeFileName(close, 'csv'), contentType: 'text/csv; charset=utf-8', content: closeCsv(close) },
    {
      filename: closeFileName(close, 'pdf'),
      contentType: 'application/pdf',
      content: await closePdf(run.organizationName, close, run.language),
    },
  ];
  const claims = await claimCloseReportRun(deps.db, key, deps.clock(), CLOSE_REPORT_CLAIM_LEASE_MS);
  if (claims === undefined) {
    if ((await findCloseReportRun(deps.db, key))?.sentAt) return;
    // Another sender holds the claim: this try ends, and the job's next one finds it sent or the lease over.
    throw new Error('The close is being sent by another try');
  }
  const mail = closeMail(run.email, run.language, {
    organizationName: run.organizationName,
    frequency: run.frequency,
    close,
    time: run.time,
    late: run.late,
    repeat: claims > 1,
    attachments,
    messageId: closeReportMessageId(key),
  });
  try {
    await deps.mailer.send(mail);
  } catch (error) {
    await releaseCloseReportRun(deps.db, key);
    if (attempt === 1) {
      await notifyBackOffice(deps.db, {
        organizationId: run.organizationId,
        kind: 'close.report_failed',
        payload: { scheduleId: key.scheduleId, lastDay: key.lastDay, to: run.email, frequency: run.frequency },
      });
    }
    throw error;
  }
  await markCloseReportSent(deps.db, key, deps.clock());
}
