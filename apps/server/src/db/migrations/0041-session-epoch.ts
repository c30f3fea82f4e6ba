import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // Access tokens are not stored; each names the user's session epoch when it was signed, and a
  // password reset or change moves the epoch on, so every access token signed before it is
  // refused at once rather than when it lapses (docs/security.md).
  await db.schema
    .alterTable('users')
    .addColumn('session_epoch', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}
