import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // The LNURL metadata the payout's invoice commits to (its `h` tag). Core Lightning's `pay` needs
  // the text itself for such an invoice, and a retry pays the stored invoice without asking the
  // address's service again.
  await db.schema.alterTable('payouts').addColumn('invoice_metadata', 'text').execute();

  // Shopify signs its webhooks with the custom app's API secret key; sealed like the token and
  // never answered. Null for a store connected before webhooks were accepted: those are refused.
  await db.schema.alterTable('shop_connections').addColumn('webhook_secret_sealed', 'text').execute();

  // Shopify delivers a webhook at least once and retries with the same X-Shopify-Webhook-Id: a
  // delivery seen before is answered 200 and not acted on again.
  await db.schema
    .createTable('shop_webhook_deliveries')
    .addColumn('connection_id', 'uuid', (c) => c.notNull().references('shop_connections.id').onDelete('cascade'))
    .addColumn('webhook_id', 'text', (c) => c.notNull())
    .addColumn('topic', 'text', (c) => c.notNull())
    .addColumn('received_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('shop_webhook_deliveries_pkey', ['connection_id', 'webhook_id'])
    .execute();
}
