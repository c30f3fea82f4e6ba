import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // A merchant's Shopify store or Ecwid store, selling through one of its virtual BPTs. The
  // secret (Shopify Admin API token, Ecwid client secret) is needed again to call the shop or to
  // open its payment requests, so it is sealed at rest like webhook secrets, never answered.
  await db.schema
    .createTable('shop_connections')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('organization_id', 'uuid', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('platform', 'text', (c) => c.notNull().check(sql`platform in ('shopify', 'ecwid')`))
    // The `*.myshopify.com` domain, or the Ecwid store id.
    .addColumn('shop', 'text', (c) => c.notNull())
    .addColumn('shop_name', 'text')
    .addColumn('virtual_bpt_id', 'uuid', (c) => c.notNull().references('virtual_bpts.id'))
    .addColumn('secret_sealed', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  // A shop's public entry finds its connection by the shop alone, so a shop belongs to one
  // organization; an organization connects one store per platform.
  await sql`create unique index shop_connections_shop_idx on shop_connections (platform, shop)`.execute(db);
  await sql`create unique index shop_connections_organization_idx on shop_connections (organization_id, platform)`.execute(
    db,
  );

  // One row per shop order sent to a checkout: the order's checkout, and telling the shop that
  // it is paid (done by a job after the settlement commits, retried until the shop takes it).
  await db.schema
    .createTable('shop_orders')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('connection_id', 'uuid', (c) => c.notNull().references('shop_connections.id').onDelete('cascade'))
    .addColumn('organization_id', 'uuid', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('platform', 'text', (c) => c.notNull())
    // Shopify's order GID; Ecwid's referenceTransactionId.
    .addColumn('platform_order_id', 'text', (c) => c.notNull())
    .addColumn('checkout_id', 'uuid', (c) => c.notNull().references('checkouts.id'))
    // Ecwid sends a store token with each payment request; the job needs it to mark the order.
    .addColumn('store_token_sealed', 'text')
    .addColumn('marked_paid_at', 'timestamptz')
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('shop_orders_order_unique', ['connection_id', 'platform_order_id'])
    .execute();
  // Settlement looks up the order of the checkout it just paid.
  await sql`create index shop_orders_checkout_idx on shop_orders (checkout_id)`.execute(db);
}
