import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // Developer tokens are refresh tokens for scripts (SPEC §9: 20 years). They live apart from
  // `refresh_tokens` because they follow none of a session's rules: they do not rotate, belong
  // to no family, survive password changes, and are listed and revoked by the organization's
  // admins. `user_id` is the admin whose rights the token's access tokens carry. The users'
  // language, which Settings now changes, is already a column of `users`.
  await db.schema
    .createTable('developer_tokens')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('organization_id', 'uuid', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('name', 'text')
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('last_used_at', 'timestamptz')
    .addColumn('revoked_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex('developer_tokens_organization_idx')
    .on('developer_tokens')
    .column('organization_id')
    .execute();
}
