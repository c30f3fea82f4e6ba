import type { CloseFrequency, Language, Role } from '@rayo/shared';
import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';

/** The graphile-worker task that mails one scheduled close to one recipient. */
export const SEND_CLOSE_REPORT_TASK = 'send-close-report';
/** Tries of a mail before graphile-worker gives up on it, its backoff growing each time. */
export const CLOSE_REPORT_MAX_ATTEMPTS = 8;

export type CloseScheduleRow = {
  id: string;
  accountId: string | null;
  frequency: CloseFrequency;
  /** `HH:MM`. */
  time: string;
  managers: boolean;
  email: string;
};

const scheduleColumns = sql`s.id, s.account_id as "accountId", s.frequency, to_char(s.at_time, 'HH24:MI') as time,
  s.include_managers as managers, u.email`;

export async function listCloseSchedules(db: Db, organizationId: string): Promise<CloseScheduleRow[]> {
  const { rows } = await sql<CloseScheduleRow>`
    select ${scheduleColumns} from close_schedules s join users u on u.id = s.user_id
    where s.organization_id = ${organizationId}
    order by s.created_at, s.id`.execute(db);
  return rows;
}

export async function insertCloseSchedule(
  db: Db,
  schedule: {
    organizationId: string;
    userId: string;
    accountId: string | null;
    frequency: CloseFrequency;
    time: string;
    managers: boolean;
    /** From the server's clock: a close due before it is not mailed. */
    createdAt: Date;
  },
): Promise<CloseScheduleRow> {
  const { rows } = await sql<CloseScheduleRow>`
    with s as (
      insert into close_schedules (organization_id, user_id, account_id, frequency, at_time, include_managers,
        created_at)
      values (${schedule.organizationId}, ${schedule.userId}, ${schedule.accountId}, ${schedule.frequency},
        ${schedule.time}::time, ${schedule.managers}, ${schedule.createdAt})
      returning *
    )
    select ${scheduleColumns} from s join users u on u.id = s.user_id`.execute(db);
  const [row] = rows;
  if (!row) throw new Error('The schedule insert returned no row');
  return row;
}

export async function deleteCloseSchedule(db: Db, organizationId: string, id: string): Promise<boolean> {
  const result = await db
    .deleteFrom('close_schedules')
    .where('organization_id', '=', organizationId)
    .where('id', '=', id)
    .executeTakeFirst();
  return result.numDeletedRows > 0n;
}

/**
 * Queues the mails of every schedule whose closing time has come on the last local day of its
 * period (daily: every day; weekly: Sunday; monthly: the month's last day), at or before `now`
 * and after the schedule was made: one to the admin who made it and, when asked, one to each
 * manager linked to its account (any account, for all of them). One statement writes each
 * (schedule, day, recipient) once and queues its job, so a period found due by several servers
 * at once, or by the same server again, is mailed once. Answers how many mails it queued.
 */
export async function queueDueCloseReports(db: Db, now: Date): Promise<number> {
  const { rows } = await sql<{ queued: string }>`
    with local as (
      select s.*, o.time_zone, (${now}::timestamptz at time zone o.time_zone) as local_now
      from close_schedules s join organizations o on o.id = s.organization_id
    ), due as (
      select id, organization_id, user_id, account_id, include_managers, local_now::date as last_day
      from local
      where local_now::time >= at_time
        and (local_now::date + at_time) at time zone time_zone > created_at
        and (frequency = 'daily'
          or (frequency = 'weekly' and extract(isodow from local_now) = 7)
          or (frequency = 'monthly' and extract(day from local_now::date + 1) = 1))
    ), recipients as (
      select id, last_day, user_id from due
      union
      select distinct due.id, due.last_day, m.id
      from due
      join users m on m.organization_id = due.organization_id and m.role = 'manager'
      join manager_accounts ma on ma.user_id = m.id
      where due.include_managers and (due.account_id is null or ma.account_id = due.account_id)
    ), queued as (
      insert into close_report_runs (schedule_id, last_day, user_id)
      select id, last_day, user_id from recipients
      on conflict do nothing
      returning schedule_id, last_day, user_id
    )
    select count(graphile_worker.add_job(
      ${SEND_CLOSE_REPORT_TASK},
      json_build_object('scheduleId', schedule_id, 'lastDay', last_day::text, 'userId', user_id),
      max_attempts => ${CLOSE_REPORT_MAX_ATTEMPTS}
    ))::text as queued
    from queued`.execute(db);
  return Number(rows[0]?.queued ?? 0);
}

export type CloseReportRun = {
  organizationId: string;
  organizationName: string;
  accountId: string | null;
  frequency: CloseFrequency;
  recipientId: string;
  email: string;
  language: Language;
  role: Role;
  sentAt: Date | null;
};

/** A queued mail with what writing it needs; undefined once its schedule or recipient is gone. */
export async function findCloseReportRun(
  db: Db,
  key: { scheduleId: string; lastDay: string; userId: string },
): Promise<CloseReportRun | undefined> {
  const { rows } = await sql<CloseReportRun>`
    select s.organization_id as "organizationId", o.name as "organizationName", s.account_id as "accountId",
      s.frequency, u.id as "recipientId", u.email, u.language, u.role, r.sent_at as "sentAt"
    from close_report_runs r
    join close_schedules s on s.id = r.schedule_id
    join organizations o on o.id = s.organization_id
    join users u on u.id = r.user_id
    where r.schedule_id = ${key.scheduleId} and r.last_day = ${key.lastDay}::date and r.user_id = ${key.userId}`.execute(
    db,
  );
  return rows[0];
}

export async function markCloseReportSent(
  db: Db,
  key: { scheduleId: string; lastDay: string; userId: string },
  now: Date,
): Promise<void> {
  await sql`update close_report_runs set sent_at = ${now}
    where schedule_id = ${key.scheduleId} and last_day = ${key.lastDay}::date and user_id = ${key.userId}`.execute(db);
}
