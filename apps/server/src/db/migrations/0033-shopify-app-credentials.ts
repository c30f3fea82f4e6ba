import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // A Shopify store is connected through a Dev Dashboard app: `secret_sealed` holds the app's
  // client secret and this column its client id, both sealed. Rayo mints Admin API tokens with
  // them (the client credentials grant); the current one, which lives 24 hours, is kept sealed
  // with its expiry so that every process and job uses it until it is refreshed. A row without a
  // client id was saved with a legacy custom app's static token, kept in `secret_sealed`.
  await db.schema
    .alterTable('shop_connections')
    .addColumn('client_id_sealed', 'text')
    .addColumn('access_token_sealed', 'text')
    .addColumn('access_token_expires_at', 'timestamptz')
    .execute();
}
