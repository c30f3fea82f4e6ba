import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // A unique constraint makes share_token a key column to PostgreSQL, so changing it (sharing a
  // terminal, turning sharing off, a new link, deleting the terminal) locks the row against the
  // key-share lock that every invoice and sale takes on its terminal: such a write waited until
  // every transaction recording the terminal's sales had ended, the demo seed's batches among
  // them. A partial unique index keeps the rule without making the column a key, and a lookup
  // by token, being an equality, still uses it.
  await sql`create unique index bpts_share_token_idx on bpts (share_token) where share_token is not null`.execute(db);
  await sql`alter table bpts drop constraint bpts_share_token_key`.execute(db);
}
