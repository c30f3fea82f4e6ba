import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // A periodic pass acts with no one asking (decision 0064): its entries name it, `system:<job
  // key>`, where a person's entries name the user. An entry names one or the other, never both.
  await db.schema.alterTable('audit_log').addColumn('actor_system', 'text').execute();
  await sql`alter table audit_log add constraint audit_log_one_actor
    check (actor_system is null or (actor_user_id is null and actor_email is null))`.execute(db);
}
