import type { Db } from '../../db/database.ts';

/** The store's connection with its sealed webhook secret: a webhook names only the shop. */
export async function findShopifyWebhookTarget(db: Db, shop: string) {
  return db
    .selectFrom('shop_connections')
    .select(['id', 'organization_id', 'shop', 'webhook_secret_sealed'])
    .where('platform', '=', 'shopify')
    .where('shop', '=', shop)
    .executeTakeFirst();
}

/** Records a delivery by its X-Shopify-Webhook-Id; false when it was recorded before (a retry). */
export async function recordShopifyDelivery(
  db: Db,
  delivery: { connectionId: string; webhookId: string; topic: string },
): Promise<boolean> {
  const inserted = await db
    .insertInto('shop_webhook_deliveries')
    .values({ connection_id: delivery.connectionId, webhook_id: delivery.webhookId, topic: delivery.topic })
    .onConflict((oc) => oc.columns(['connection_id', 'webhook_id']).doNothing())
    .returning('webhook_id')
    .executeTakeFirst();
  return inserted !== undefined;
}

/** The checkout of the shop's order, if still awaiting payment, becomes expired; returns its id. */
export async function expireShopOrderCheckout(
  db: Db,
  connectionId: string,
  platformOrderId: string,
): Promise<string | undefined> {
  const row = await db
    .updateTable('checkouts')
    .set({ status: 'expired' })
    .where('status', '=', 'awaiting_payment')
    .where('id', 'in', (qb) =>
      qb
        .selectFrom('shop_orders')
        .select('checkout_id')
        .where('connection_id', '=', connectionId)
        .where('platform_order_id', '=', platformOrderId),
    )
    .returning('id')
    .executeTakeFirst();
  return row?.id;
}

/** The store uninstalled the app: its connection goes, with its orders still to be marked. */
export async function deleteShopifyConnection(db: Db, connectionId: string) {
  return db
    .deleteFrom('shop_connections')
    .where('id', '=', connectionId)
    .where('platform', '=', 'shopify')
    .returning(['id', 'organization_id', 'shop'])
    .executeTakeFirst();
}
