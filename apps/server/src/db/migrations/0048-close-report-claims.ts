import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // A mailed close is claimed just before it is handed to the mail server (docs/decisions
  // 0060): `claims` counts the hand-overs that may have reached it, so a second one is marked as
  // a possible repeat. `late` marks a period queued well after its closing time, when no server
  // was running at that time and a later pass caught it up.
  await db.schema
    .alterTable('close_report_runs')
    .addColumn('claims', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('claimed_at', 'timestamptz')
    .addColumn('late', 'boolean', (c) => c.notNull().defaultTo(false))
    .execute();
}
