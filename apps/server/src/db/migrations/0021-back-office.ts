import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // Back office exports the audit log of a period across every organization; without this the
  // export would read the whole log to find one month of it.
  await sql`create index audit_log_occurred_idx on audit_log (occurred_at, id)`.execute(db);
}
