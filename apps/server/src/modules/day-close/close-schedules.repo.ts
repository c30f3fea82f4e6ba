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

/** Deletes a schedule and answers what it was, or undefined when the organization has none of that id. */
export async function deleteCloseSchedule(
  db: Db,
  organizationId: string,
  id: string,
): Promise<CloseScheduleRow | undefined> {
  const { rows } = await sql<CloseScheduleRow>`
    with s as (
      delete from close_schedules where organization_id = ${organizationId} and id = ${id} returning *
    )
    select ${scheduleColumns} from s join users u on u.id = s.user_id`.execute(db);
  return rows[0];
}

/**
 * How many missed periods of one schedule a pass catches up at most, the latest ones: a server
 * down for months sends a week of daily closes, seven weekly or seven monthly ones, not hundreds.
 */
export const CLOSE_CATCH_UP_PERIODS = 7;
/** A period queued this long after its closing time is mailed as late. */
export const CLOSE_REPORT_LATE_AFTER_MINUTES = 15;

/**
 * Queues the mails of every schedule whose closing time has come on the last local day of a
 * period (daily: every day; weekly: Sunday; monthly: the month's last day), at or before `now`
 * and after the schedule was made: one to the admin who made it and, when asked, one to each
 * manager linked to its account (any account, for all of them). Periods whose closing time
 * passed while no server ran are caught up, oldest first, up to the latest
 * CLOSE_CATCH_UP_PERIODS of each schedule, and marked late. One statement writes each
 * (schedule, day, recipient) once and queues its job, so a period found due by several servers
 * at once, or by the same server again, is mailed once. Each recipient's mails of a schedule
 * share a graphile-worker queue, which runs them one at a time in the order queued. Answers how
 * many mails it queued.
 */
export async function queueDueCloseReports(db: Db, now: Date): Promise<number> {
  const { rows } = await sql<{ queued: string }>`
    with local as (
      select s.*, o.time_zone, (${now}::timestamptz at time zone o.time_zone)::date as today
      from close_schedules s join organizations o on o.id = s.organization_id
    ), days as (
      select local.*, day::date as last_day, (day::date + at_time) at time zone time_zone as due_at
      from local, generate_series(
        today - case frequency when 'daily' then ${CLOSE_CATCH_UP_PERIODS}
          when 'weekly' then 7 * ${CLOSE_CATCH_UP_PERIODS} else 31 * ${CLOSE_CATCH_UP_PERIODS} end,
        today, interval '1 day') as day
    ), periods as (
      select *, row_number() over (partition by id order by last_day desc) as recent
      from days
      where due_at <= ${now} and due_at > created_at
        and (frequency = 'daily'
          or (frequency = 'weekly' and extract(isodow from last_day) = 7)
          or (frequency = 'monthly' and extract(day from last_day + 1) = 1))
    ), due as (
      select id, organization_id, user_id, account_id, include_managers, last_day,
        due_at < ${now}::timestamptz - make_interval(mins => ${CLOSE_REPORT_LATE_AFTER_MINUTES}) as late
      from periods p
      where recent <= ${CLOSE_CATCH_UP_PERIODS}
        and not exists (select 1 from close_report_runs r where r.schedule_id = p.id and r.last_day = p.last_day)
    ), recipients as (
      select id, last_day, late, user_id from due
      union
      select distinct due.id, due.last_day, due.late, m.id
      from due
      join users m on m.organization_id = due.organization_id and m.role = 'manager'
      join manager_accounts ma on ma.user_id = m.id
      where due.include_managers and (due.account_id is null or ma.account_id = due.account_id)
    ), queued as (
      insert into close_report_runs (schedule_id, last_day, user_id, late)
      select id, last_day, user_id, late from recipients
      on conflict do nothing
      returning schedule_id, last_day, user_id
    )
    select count(graphile_worker.add_job(
      ${SEND_CLOSE_REPORT_TASK},
      json_build_object('scheduleId', schedule_id, 'lastDay', last_day::text, 'userId', user_id),
      queue_name => 'close-report:' || schedule_id || ':' || user_id,
      max_attempts => ${CLOSE_REPORT_MAX_ATTEMPTS}
    ))::text as queued
    from (select * from queued order by last_day) as oldest_first`.execute(db);
  return Number(rows[0]?.queued ?? 0);
}

export type CloseReportRun = {
  organizationId: string;
  organizationName: string;
  accountId: string | null;
  frequency: CloseFrequency;
  /** The closing time, `HH:MM`. */
  time: string;
  recipientId: string;
  email: string;
  language: Language;
  role: Role;
  late: boolean;
  sentAt: Date | null;
};

/** A queued mail with what writing it needs; undefined once its schedule or recipient is gone. */
export async function findCloseReportRun(
  db: Db,
  key: { scheduleId: string; lastDay: string; userId: string },
): Promise<CloseReportRun | undefined> {
  const { rows } = await sql<CloseReportRun>`
    select s.organization_id as "organizationId", o.name as "organizationName", s.account_id as "accountId",
      s.frequency, to_char(s.at_time, 'HH24:MI') as time, u.id as "recipientId", u.email, u.language, u.role, r.late,
      r.sent_at as "sentAt"
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

/**
 * Claims a mail just before it is handed to the mail server: answers how many times it has been
 * claimed, this one included (more than one: an earlier hand-over may have reached the server
 * before its sender died), or undefined when it is sent or another sender claimed it less than
 * `leaseMs` ago.
 */
export async function claimCloseReportRun(
  db: Db,
  key: { scheduleId: string; lastDay: string; userId: string },
  now: Date,
  leaseMs: number,
): Promise<number | undefined> {
  const { rows } = await sql<{ claims: number }>`
    update close_report_runs set claims = claims + 1, claimed_at = ${now}
    where schedule_id = ${key.scheduleId} and last_day = ${key.lastDay}::date and user_id = ${key.userId}
      and sent_at is null
      and (claimed_at is null or claimed_at <= ${now}::timestamptz - make_interval(secs => ${leaseMs / 1000}))
    returning claims`.execute(db);
  return rows[0]?.claims;
}

/** Gives a claim back after the mail server refused the mail, so the retry is not a repeat. */
export async function releaseCloseReportRun(
  db: Db,
  key: { scheduleId: string; lastDay: string; userId: string },
): Promise<void> {
  await sql`update close_report_runs set claims = claims - 1, claimed_at = null
    where schedule_id = ${key.scheduleId} and last_day = ${key.lastDay}::date and user_id = ${key.userId}
      and sent_at is null and claims > 0`.execute(db);
}
