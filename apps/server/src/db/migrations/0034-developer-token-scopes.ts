import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // What a developer token's access tokens may do (docs/security.md "Developer tokens"). Tokens
  // made before scopes existed get the narrowest, which is what the shop integrations use: a
  // script that needs more is given a new token with the scope it needs.
  await db.schema
    .alterTable('developer_tokens')
    .addColumn('scope', 'text', (c) =>
      c.notNull().defaultTo('checkouts').check(sql`scope in ('checkouts', 'read-only', 'full')`),
    )
    .execute();
}
