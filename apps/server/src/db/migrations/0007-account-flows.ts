import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // Users created before sign-up existed were made by an operator and count as confirmed.
  await db.schema.alterTable('users').addColumn('email_confirmed_at', 'timestamptz').execute();
  await sql`update users set email_confirmed_at = created_at`.execute(db);

  // An admin who signed up has no organization until onboarding creates it.
  await sql`alter table users drop constraint users_organization_by_role`.execute(db);
  await sql`alter table users add constraint users_organization_by_role check (
    case role
      when 'back_office' then organization_id is null
      when 'admin' then true
      else organization_id is not null
    end
  )`.execute(db);

  // Codes sent by mail: the email confirmation link and the password reset code. Only a hash
  // is kept; a code is spent once, expires, and dies after a few wrong guesses.
  await db.schema
    .createTable('email_codes')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('purpose', 'text', (c) => c.notNull().check(sql`purpose in ('confirm_email', 'reset_password')`))
    .addColumn('code_hash', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('used_at', 'timestamptz')
    .addColumn('failed_attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('email_codes_user_idx').on('email_codes').columns(['user_id', 'purpose']).execute();
  await db.schema.createIndex('email_codes_hash_idx').on('email_codes').column('code_hash').execute();
}
