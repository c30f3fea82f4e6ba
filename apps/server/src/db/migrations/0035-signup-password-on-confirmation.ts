import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // A confirmation link no longer carries a sign-up's password: anyone can make the address
  // mail one, so the password is typed on the page the link opens, by whoever holds the mailbox.
  await db.schema.alterTable('email_codes').dropColumn('password_hash').execute();
}
