import { AppError, ShopifyDomainSchema } from '@rayo/shared';
import { shopifyOrderGid } from '../../adapters/shops/shopify.ts';
import { verifyShopifyHmac } from '../../domain/shopify-hmac.ts';
import { insertAuditEntry } from '../audit/audit.repo.ts';
import { notifyCheckoutStatus } from '../checkouts/checkouts.repo.ts';
import {
  deleteShopifyConnection,
  expireShopOrderCheckout,
  findShopifyWebhookTarget,
  recordShopifyDelivery,
} from './shopify-webhooks.repo.ts';
import { type ShopDeps, webhookSecretContext } from './shops.service.ts';

export type ShopifyWebhook = {
  shop: string | undefined;
  topic: string | undefined;
  webhookId: string | undefined;
  hmac: string | undefined;
  rawBody: Buffer;
};

/**
 * The order a webhook is about, by its GID: the payload's numeric `id` is above 2^53 and would not
 * survive JSON.parse exactly, so only `admin_graphql_api_id` is read.
 */
function orderGidOf(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const gid = (body as Record<string, unknown>).admin_graphql_api_id;
  return typeof gid === 'string' ? shopifyOrderGid(gid) : undefined;
}

/**
 * A Shopify webhook (reference/ecommerce.md §2): the body is trusted only once its
 * X-Shopify-Hmac-Sha256 verifies with the store's API secret key, and each X-Shopify-Webhook-Id
 * is acted on once (Shopify delivers at least once). `orders/cancelled` and `orders/paid` close
 * the order's checkout if it is still waiting (paid elsewhere, or nothing left to pay); when we
 * marked the order paid ourselves it is already paid and nothing changes. `app/uninstalled`
 * disconnects the store. Other topics are acknowledged and ignored. Answers whether it acted.
 */
export async function receiveShopifyWebhook(deps: ShopDeps, webhook: ShopifyWebhook): Promise<{ handled: boolean }> {
  const shop = ShopifyDomainSchema.safeParse(webhook.shop ?? '');
  if (!shop.success) throw new AppError('NotFound', 'This store is not connected');
  const connection = await findShopifyWebhookTarget(deps.db, shop.data);
  if (!connection) throw new AppError('NotFound', 'This store is not connected');
  if (connection.webhook_secret_sealed === null) {
    throw new AppError('InvalidWebhookSignature', "The store's API secret key is not set in Rayo");
  }
  const secret = deps.mfaCipher.open(connection.webhook_secret_sealed, webhookSecretContext(connection.id));
  if (!verifyShopifyHmac(webhook.rawBody, webhook.hmac, secret)) {
    throw new AppError('InvalidWebhookSignature', 'The webhook is not signed with this store’s API secret key');
  }
  const topic = webhook.topic ?? '';
  const webhookId = webhook.webhookId?.trim() ?? '';
  if (webhookId === '' || webhookId.length > 200 || topic.length > 100) {
    throw new AppError('InvalidInput', 'X-Shopify-Topic and X-Shopify-Webhook-Id are required');
  }
  let body: unknown;
  try {
    body = JSON.parse(webhook.rawBody.toString('utf8'));
  } catch {
    throw new AppError('InvalidInput', 'The webhook body is not JSON');
  }
  return deps.db.transaction().execute(async (trx) => {
    if (!(await recordShopifyDelivery(trx, { connectionId: connection.id, webhookId, topic }))) {
      return { handled: false };
    }
    if (topic === 'orders/cancelled' || topic === 'orders/paid') {
      const orderGid = orderGidOf(body);
      if (!orderGid) throw new AppError('InvalidInput', 'The order has no id');
      const expired = await expireShopOrderCheckout(trx, connection.id, orderGid);
      if (expired) await notifyCheckoutStatus(trx, expired, 'expired');
      return { handled: expired !== undefined };
    }
    if (topic === 'app/uninstalled') {
      const deleted = await deleteShopifyConnection(trx, connection.id);
      if (deleted) {
        await insertAuditEntry(trx, {
          action: 'settings.shop_disconnected',
          organizationId: deleted.organization_id,
          target: `shop_connection:${deleted.id}`,
          before: { platform: 'shopify', shop: deleted.shop },
          after: { reason: 'app/uninstalled' },
        });
      }
      return { handled: deleted !== undefined };
    }
    return { handled: false };
  });
}
