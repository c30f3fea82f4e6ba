import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // A refresh token is replaced by a new one each time it is used. The tokens descending from
  // one sign-in share a family; a token presented again after it was replaced means someone
  // else holds a copy, and the whole family is revoked. Tokens issued before this migration
  // are each a family of their own.
  await db.schema
    .alterTable('refresh_tokens')
    .addColumn('family_id', 'uuid', (c) => c.notNull().defaultTo(sql`gen_random_uuid()`))
    .addColumn('rotated_at', 'timestamptz')
    .execute();
  await db.schema.createIndex('refresh_tokens_family_idx').on('refresh_tokens').column('family_id').execute();
}
