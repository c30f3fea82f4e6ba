import { z } from 'zod';

/**
 * What each Shopify webhook topic Rayo acts on carries, so that a body is acted on only under the
 * topic it was sent for. `X-Shopify-Topic` is a header outside the HMAC, which covers the body
 * alone: a body signed for one topic, re-sent under another, must not pass for that other.
 * Shapes from Shopify's webhook payloads (shopify.dev, webhooks reference and "Privacy law
 * compliance"): an order has its `admin_graphql_api_id`; orders/paid comes when the order's
 * `financial_status` is `paid`; orders/cancelled carries `cancelled_at`; app/uninstalled carries
 * the shop, with its `myshopify_domain`; the compliance topics carry `shop_domain`, and
 * customers/data_request its `data_request`, customers/redact its `orders_to_redact`.
 */

const ORDER_GID = /^gid:\/\/shopify\/Order\/\d{1,20}$/;

const OrderBody = z.object({ admin_graphql_api_id: z.string().regex(ORDER_GID) });
/** Keys that only a shop, or only a compliance request, carries: an order body has none of them. */
const NOT_AN_ORDER = ['myshopify_domain', 'shop_domain', 'data_request', 'orders_to_redact', 'orders_requested'];

const absent = (keys: string[]) => (body: Record<string, unknown>) => keys.every((key) => !(key in body));

export const ShopifyWebhookBodySchemas = {
  'orders/paid': OrderBody.extend({ financial_status: z.literal('paid') })
    .loose()
    .refine(absent(NOT_AN_ORDER)),
  'orders/cancelled': OrderBody.extend({ cancelled_at: z.string().min(1) })
    .loose()
    .refine(absent(NOT_AN_ORDER)),
  'app/uninstalled': z
    .object({ myshopify_domain: z.string() })
    .loose()
    .refine(absent(['admin_graphql_api_id', 'shop_domain', 'data_request', 'orders_to_redact', 'customer'])),
  'customers/data_request': z
    .object({
      shop_domain: z.string(),
      customer: z.object({}).loose(),
      orders_requested: z.array(z.union([z.number(), z.string()])),
      data_request: z.object({}).loose(),
    })
    .loose()
    .refine(absent(['orders_to_redact', 'admin_graphql_api_id', 'myshopify_domain'])),
  'customers/redact': z
    .object({
      shop_domain: z.string(),
      customer: z.object({}).loose(),
      orders_to_redact: z.array(z.union([z.number(), z.string()])),
    })
    .loose()
    .refine(absent(['data_request', 'orders_requested', 'admin_graphql_api_id', 'myshopify_domain'])),
  'shop/redact': z
    .object({ shop_domain: z.string() })
    .loose()
    .refine(absent(['customer', 'data_request', 'orders_to_redact', 'orders_requested', 'admin_graphql_api_id'])),
} as const;

export type ShopifyWebhookTopic = keyof typeof ShopifyWebhookBodySchemas;

export function isHandledShopifyTopic(topic: string): topic is ShopifyWebhookTopic {
  return Object.hasOwn(ShopifyWebhookBodySchemas, topic);
}

/**
 * The shop a body names, where its topic names one: it must be the store the delivery came
 * from (X-Shopify-Shop-Domain), or the body was another store's.
 */
export function shopNamedIn(topic: ShopifyWebhookTopic, body: Record<string, unknown>): string | undefined {
  if (topic === 'app/uninstalled') return String(body.myshopify_domain).toLowerCase();
  if (topic.startsWith('orders/')) return undefined;
  return String(body.shop_domain).toLowerCase();
}
