import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // When an admin has the end-of-day close mailed: at `at_time` on the last local day of each
  // period, for one account or (account_id null) all of them.
  await db.schema
    .createTable('close_schedules')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('organization_id', 'uuid', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('account_id', 'uuid', (c) => c.references('accounts.id').onDelete('cascade'))
    .addColumn('frequency', 'text', (c) => c.notNull().check(sql`frequency in ('daily', 'weekly', 'monthly')`))
    .addColumn('at_time', 'time', (c) => c.notNull())
    .addColumn('include_managers', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('close_schedules_organization').on('close_schedules').column('organization_id').execute();
  // One row per schedule, period and recipient: the mail is queued in the statement that writes
  // it, so each recipient gets each period once whichever server's pass finds it due first.
  await db.schema
    .createTable('close_report_runs')
    .addColumn('schedule_id', 'uuid', (c) => c.notNull().references('close_schedules.id').onDelete('cascade'))
    .addColumn('last_day', 'date', (c) => c.notNull())
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('queued_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('sent_at', 'timestamptz')
    .addPrimaryKeyConstraint('close_report_runs_pk', ['schedule_id', 'last_day', 'user_id'])
    .execute();
}
