import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // Rows outlive the users and organizations they name, so the references are snapshots
  // (the email) plus nullable links.
  await db.schema
    .createTable('audit_log')
    .addColumn('id', 'bigint', (c) => c.primaryKey().generatedAlwaysAsIdentity())
    .addColumn('occurred_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('actor_user_id', 'uuid', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('actor_email', 'text')
    .addColumn('organization_id', 'uuid', (c) => c.references('organizations.id').onDelete('set null'))
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('target', 'text')
    .addColumn('before', 'jsonb')
    .addColumn('after', 'jsonb')
    .addColumn('ip', 'text')
    .execute();
  await sql`create index audit_log_organization_idx on audit_log (organization_id, occurred_at desc)`.execute(db);
  await sql`create index audit_log_actor_idx on audit_log (actor_user_id, occurred_at desc)`.execute(db);
}
