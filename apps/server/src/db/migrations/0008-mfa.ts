import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // One row per user who has started turning MFA on. `enabled_at` stays null until a first code
  // proves the authenticator holds the secret; `last_used_step` is the TOTP time step of the
  // last accepted code, so a code cannot be replayed within its window.
  await db.schema
    .createTable('user_mfa')
    .addColumn('user_id', 'uuid', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('secret_sealed', 'text', (c) => c.notNull())
    .addColumn('enabled_at', 'timestamptz')
    .addColumn('last_used_step', 'bigint')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  // Recovery codes belong to one enrollment: replacing or removing the `user_mfa` row removes them.
  await db.schema
    .createTable('mfa_recovery_codes')
    .addColumn('id', 'bigint', (c) => c.primaryKey().generatedAlwaysAsIdentity())
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('user_mfa.user_id').onDelete('cascade'))
    .addColumn('code_hash', 'text', (c) => c.notNull())
    .addColumn('used_at', 'timestamptz')
    .addUniqueConstraint('mfa_recovery_codes_user_code_key', ['user_id', 'code_hash'])
    .execute();
}
