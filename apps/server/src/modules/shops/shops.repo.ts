import type { ShopPlatform } from '@rayo/shared';
import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';

/** The jobs that tell a shop its order is paid (jobs/mark-shop-order-paid.ts). */
export const MARK_ORDER_PAID_TASKS = {
  shopify: 'shopify-mark-order-paid',
  ecwid: 'ecwid-mark-order-paid',
} as const satisfies Record<ShopPlatform, string>;
/** Attempts before the shop is given up on: graphile-worker's backoff spreads 12 over about a day. */
export const MARK_ORDER_PAID_MAX_ATTEMPTS = 12;

const connectionColumns = [
  'id',
  'organization_id',
  'platform',
  'shop',
  'shop_name',
  'virtual_bpt_id',
  'created_at',
] as const;

/** The organization's store on a platform, without its secret. */
export async function findConnection(db: Db, organizationId: string, platform: ShopPlatform) {
  return db
    .selectFrom('shop_connections')
    .select(connectionColumns)
    .where('organization_id', '=', organizationId)
    .where('platform', '=', platform)
    .executeTakeFirst();
}

/**
 * A store by its domain or id, with its sealed secret: the public entries (a shopper's pay link,
 * Ecwid's payment request) know only the shop, which names the organization.
 */
export async function findConnectionByShop(db: Db, platform: ShopPlatform, shop: string) {
  return db
    .selectFrom('shop_connections')
    .select([...connectionColumns, 'secret_sealed'])
    .where('platform', '=', platform)
    .where('shop', '=', shop)
    .executeTakeFirst();
}

/** Saves the organization's store on a platform, replacing the one it had; throws 23505 if the shop is another's. */
export async function saveConnection(
  db: Db,
  row: {
    id: string;
    organizationId: string;
    platform: ShopPlatform;
    shop: string;
    shopName: string | null;
    virtualBptId: string;
    secretSealed: string;
    webhookSecretSealed?: string | null;
    /** A Shopify app's client id and its first minted token, sealed. */
    shopifyApp?: { clientIdSealed: string; accessTokenSealed: string; accessTokenExpiresAt: Date };
  },
) {
  await db
    .deleteFrom('shop_connections')
    .where('organization_id', '=', row.organizationId)
    .where('platform', '=', row.platform)
    .execute();
  return db
    .insertInto('shop_connections')
    .values({
      id: row.id,
      organization_id: row.organizationId,
      platform: row.platform,
      shop: row.shop,
      shop_name: row.shopName,
      virtual_bpt_id: row.virtualBptId,
      secret_sealed: row.secretSealed,
      webhook_secret_sealed: row.webhookSecretSealed ?? null,
      client_id_sealed: row.shopifyApp?.clientIdSealed ?? null,
      access_token_sealed: row.shopifyApp?.accessTokenSealed ?? null,
      access_token_expires_at: row.shopifyApp?.accessTokenExpiresAt ?? null,
    })
    .returning(connectionColumns)
    .executeTakeFirstOrThrow();
}

/** What calling a Shopify store takes: its app's sealed credentials and the token last minted. */
export async function findShopifyTokenState(db: Db, connectionId: string) {
  return db
    .selectFrom('shop_connections')
    .select(['id', 'shop', 'secret_sealed', 'client_id_sealed', 'access_token_sealed', 'access_token_expires_at'])
    .where('id', '=', connectionId)
    .where('platform', '=', 'shopify')
    .executeTakeFirst();
}

/** Keeps a newly minted token; a token minted at the same time by another call may be the one kept. */
export async function saveShopifyAccessToken(
  db: Db,
  connectionId: string,
  token: { accessTokenSealed: string; expiresAt: Date },
): Promise<void> {
  await db
    .updateTable('shop_connections')
    .set({ access_token_sealed: token.accessTokenSealed, access_token_expires_at: token.expiresAt })
    .where('id', '=', connectionId)
    .execute();
}

/** Forgets the organization's store on a platform, and with it the orders still to be marked. */
export async function deleteConnection(db: Db, organizationId: string, platform: ShopPlatform) {
  return db
    .deleteFrom('shop_connections')
    .where('organization_id', '=', organizationId)
    .where('platform', '=', platform)
    .returning(['id', 'shop'])
    .executeTakeFirst();
}

export async function findShopOrder(db: Db, connectionId: string, platformOrderId: string) {
  return db
    .selectFrom('shop_orders')
    .selectAll()
    .where('connection_id', '=', connectionId)
    .where('platform_order_id', '=', platformOrderId)
    .executeTakeFirst();
}

/** Records the order's checkout; a concurrent first open of the same order keeps the row already there. */
export async function insertShopOrder(
  db: Db,
  row: {
    connectionId: string;
    organizationId: string;
    platform: ShopPlatform;
    platformOrderId: string;
    checkoutId: string;
    storeTokenSealed: string | null;
  },
): Promise<void> {
  await db
    .insertInto('shop_orders')
    .values({
      connection_id: row.connectionId,
      organization_id: row.organizationId,
      platform: row.platform,
      platform_order_id: row.platformOrderId,
      checkout_id: row.checkoutId,
      store_token_sealed: row.storeTokenSealed,
    })
    .onConflict((conflict) => conflict.columns(['connection_id', 'platform_order_id']).doNothing())
    .execute();
}

/** A later payment request of the same order brings a fresh store token; the job uses the newest. */
export async function updateShopOrderToken(db: Db, id: string, storeTokenSealed: string): Promise<void> {
  await db.updateTable('shop_orders').set({ store_token_sealed: storeTokenSealed }).where('id', '=', id).execute();
}

/**
 * Enqueues, in the settlement's transaction, the job telling the shop that the order of this
 * checkout is paid: it exists iff the payment does. The job key is the order row, so a second
 * payment of the checkout replaces a job still pending instead of adding one.
 */
export async function addMarkOrderPaidJobs(db: Db, checkoutId: string): Promise<void> {
  const orders = await db
    .selectFrom('shop_orders')
    .select(['id', 'platform'])
    .where('checkout_id', '=', checkoutId)
    .where('marked_paid_at', 'is', null)
    .execute();
  for (const order of orders) {
    const payload = JSON.stringify({ shopOrderId: order.id });
    await sql`select graphile_worker.add_job(
      ${MARK_ORDER_PAID_TASKS[order.platform]}, ${payload}::json,
      max_attempts => ${MARK_ORDER_PAID_MAX_ATTEMPTS}, job_key => ${`shop-order:${order.id}`}
    )`.execute(db);
  }
}

/** The order with what calling its shop takes, locked so that two runs of its job do not overlap. */
export async function lockShopOrderToMark(db: Db, id: string) {
  return db
    .selectFrom('shop_orders')
    .innerJoin('shop_connections', 'shop_connections.id', 'shop_orders.connection_id')
    .select([
      'shop_orders.id',
      'shop_orders.platform',
      'shop_orders.platform_order_id',
      'shop_orders.store_token_sealed',
      'shop_orders.marked_paid_at',
      'shop_connections.id as connection_id',
      'shop_connections.shop',
    ])
    .where('shop_orders.id', '=', id)
    .forUpdate('shop_orders')
    .executeTakeFirst();
}

export async function recordMarkAttempt(
  db: Db,
  id: string,
  outcome: { markedPaidAt: Date | null; error: string | null },
): Promise<void> {
  await db
    .updateTable('shop_orders')
    .set((eb) => ({
      attempts: eb('attempts', '+', 1),
      marked_paid_at: outcome.markedPaidAt,
      last_error: outcome.error,
    }))
    .where('id', '=', id)
    .execute();
}

/** Whether the shop order paid by a checkout has been marked paid at its shop; null when the checkout is no shop order. */
export async function findShopOrderNotified(db: Db, checkoutId: string): Promise<boolean | null> {
  const row = await db
    .selectFrom('shop_orders')
    .select('marked_paid_at')
    .where('checkout_id', '=', checkoutId)
    .executeTakeFirst();
  return row ? row.marked_paid_at !== null : null;
}
