import { AppError, ShopifyDomainSchema } from '@rayo/shared';
import { verifyShopifyHmac } from '../../domain/shopify-hmac.ts';
import { isHandledShopifyTopic, ShopifyWebhookBodySchemas, shopNamedIn } from '../../domain/shopify-webhook-body.ts';
import type { PublicContext } from '../../http/request-context.ts';
import { recordAuditEntry } from '../audit/audit.service.ts';
import { announceCheckoutStatus } from '../checkouts/checkout-state.service.ts';
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

/** Only the X-Shopify-Hmac-Sha256 check says 401, as Shopify asks of the compliance topics. */
function refuseSignature(): never {
  throw new AppError('InvalidWebhookSignature', 'The webhook is not signed with the app’s client secret');
}

/**
 * A Shopify webhook (reference/ecommerce.md §2.4): the body is trusted only once its
 * X-Shopify-Hmac-Sha256 verifies with the store's app's client secret, and then only under the
 * topic its shape fits (the topic header is outside the signature); each X-Shopify-Webhook-Id is
 * acted on once (Shopify delivers at least once).
 * - `orders/cancelled`, `orders/paid`: the order's checkout closes if it is still waiting (paid
 *   elsewhere, or nothing left to pay); when Rayo marked the order paid itself nothing changes.
 * - `app/uninstalled`, `shop/redact`: the store is disconnected, its orders with it.
 * - `customers/data_request`, `customers/redact`: Rayo keeps nothing of a Shopify customer (a
 *   store checkout holds the order's name and amount, no name, email or address), so there is
 *   nothing to send or erase; the request is recorded in the audit log for the merchant.
 * Other topics are acknowledged and ignored. Answers whether it acted. Its audit entries name the
 * sender's address, from `ctx`.
 */
export async function receiveShopifyWebhook(
  ctx: PublicContext,
  deps: ShopDeps,
  webhook: ShopifyWebhook,
): Promise<{ handled: boolean }> {
  const shop = ShopifyDomainSchema.safeParse(webhook.shop ?? '');
  // Shopify's compliance checks send unsigned or wrongly signed requests and expect 401 for
  // each, so a request for a store Rayo does not know is refused the same way, saying nothing.
  if (!shop.success) refuseSignature();
  const connection = await findShopifyWebhookTarget(deps.db, shop.data);
  if (!connection || connection.webhook_secret_sealed === null) refuseSignature();
  const secret = deps.mfaCipher.open(connection.webhook_secret_sealed, webhookSecretContext(connection.id));
  if (!verifyShopifyHmac(webhook.rawBody, webhook.hmac, secret)) refuseSignature();
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
  if (!isHandledShopifyTopic(topic)) {
    await recordShopifyDelivery(deps.db, { connectionId: connection.id, webhookId, topic });
    return { handled: false };
  }
  const parsed = ShopifyWebhookBodySchemas[topic].safeParse(body);
  if (!parsed.success || (shopNamedIn(topic, parsed.data) ?? shop.data) !== shop.data) {
    throw new AppError('InvalidInput', `The webhook body is not a ${topic} body of this store`);
  }
  const fields = parsed.data as Record<string, unknown>;
  return deps.db.transaction().execute(async (trx) => {
    if (!(await recordShopifyDelivery(trx, { connectionId: connection.id, webhookId, topic }))) {
      return { handled: false };
    }
    if (topic === 'orders/cancelled' || topic === 'orders/paid') {
      const expired = await expireShopOrderCheckout(trx, connection.id, String(fields.admin_graphql_api_id));
      if (expired) await announceCheckoutStatus(trx, expired, 'expired');
      return { handled: expired !== undefined };
    }
    if (topic === 'customers/data_request' || topic === 'customers/redact') {
      const orders = topic === 'customers/data_request' ? fields.orders_requested : fields.orders_to_redact;
      await recordAuditEntry(trx, {
        action: 'shop.privacy_request',
        organizationId: connection.organization_id,
        target: `shop_connection:${connection.id}`,
        after: { topic, orders: Array.isArray(orders) ? orders.length : 0, customerDataKept: false },
        ip: ctx.ip,
      });
      return { handled: true };
    }
    const deleted = await deleteShopifyConnection(trx, connection.id);
    if (deleted) {
      await recordAuditEntry(trx, {
        action: 'settings.shop_disconnected',
        organizationId: deleted.organization_id,
        target: `shop_connection:${deleted.id}`,
        before: { platform: 'shopify', shop: deleted.shop },
        after: { reason: topic },
        ip: ctx.ip,
      });
    }
    return { handled: deleted !== undefined };
  });
}
