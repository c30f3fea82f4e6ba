import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // Why back office blocked an organization, which the merchant is told: information missing in
  // Settings (SPEC §8's 'Your organization is disabled, missing info in Settings') or another
  // reason to take up with support. Organizations blocked before now were blocked for the latter.
  await sql`
    alter table organizations
      add column blocked_reason text check (blocked_reason in ('missing_info', 'other'))
  `.execute(db);
  await sql`update organizations set blocked_reason = 'other' where blocked`.execute(db);
  await sql`
    alter table organizations
      add constraint organizations_blocked_reason check (blocked = (blocked_reason is not null))
  `.execute(db);
}
