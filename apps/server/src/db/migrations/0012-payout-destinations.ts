import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // What back office must look at: a change of a verified payout field, a new split… One row per
  // event; the payload says what changed, never a secret.
  await db.schema
    .createTable('notifications')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('organization_id', 'uuid', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('payload', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`create index notifications_created_idx on notifications (created_at desc, id)`.execute(db);
  await sql`create index notifications_organization_idx on notifications (organization_id, created_at desc)`.execute(
    db,
  );

  // SPEC §3 "Banking info: a list whose first entry is used": the oldest entry of an organization
  // is the one paid to. The fields live in `metadata` because which ones exist depends on the
  // country (the banking-info template).
  await db.schema
    .createTable('banking_info')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('organization_id', 'uuid', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('metadata', 'jsonb', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`create index banking_info_organization_idx on banking_info (organization_id, created_at, id)`.execute(db);

  // Where the bitcoin parts of the payout split go (DESIGN §4).
  await db.schema
    .alterTable('organizations')
    .addColumn('onchain_address', 'text')
    .addColumn('lightning_address', 'text')
    .execute();
}
