import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // A confirmation link carries the password typed at the sign-up that mailed it: whoever
  // proves the mailbox by following the link gets that password, not the one an earlier
  // sign-up for the same address chose. Null for reset codes, and for links mailed before.
  await db.schema.alterTable('email_codes').addColumn('password_hash', 'text').execute();
}
