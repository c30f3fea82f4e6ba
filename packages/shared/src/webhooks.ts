import { z } from 'zod';
import { DEFAULT_PAGE_SIZE } from './constants.ts';

// Signed webhooks to the merchant (docs/api.md "Webhooks"): each event is POSTed to every active
// endpoint of the organization subscribed to its type, signed with the endpoint's secret.

export const WEBHOOK_EVENT_TYPES = [
  'checkout.paid',
  'checkout.processing',
  'checkout.underpaid',
  'checkout.expired',
  'checkout.refunded',
  'donation.received',
] as const;
export const WebhookEventTypeSchema = z.enum(WEBHOOK_EVENT_TYPES);
export type WebhookEventType = z.infer<typeof WebhookEventTypeSchema>;
/** What a delivery carries: an event, or the test event an admin sends from the endpoint list. */
export const WebhookDeliveryTypeSchema = z.enum([...WEBHOOK_EVENT_TYPES, 'webhook.test']);
export type WebhookDeliveryType = z.infer<typeof WebhookDeliveryTypeSchema>;

/** The header carrying `t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>`. */
export const WEBHOOK_SIGNATURE_HEADER = 'Rayo-Signature';
export const WEBHOOK_EVENT_HEADER = 'Rayo-Event';
/** The delivery id: the same on every retry and redelivery, for the receiver's idempotency. */
export const WEBHOOK_DELIVERY_HEADER = 'Rayo-Delivery';
/** Every secret starts with this, so it can be told apart in a leak scan. */
export const WEBHOOK_SECRET_PREFIX = 'whsec_';
/** Endpoints an organization may hold at once. */
export const WEBHOOK_ENDPOINT_LIMIT = 10;

/** An endpoint as the list shows it: never its secret, which is shown only once. */
export const WebhookEndpointSchema = z.object({
  id: z.string(),
  url: z.string(),
  events: z.array(WebhookEventTypeSchema),
  active: z.boolean(),
  createdAt: z.iso.datetime(),
});
export type WebhookEndpoint = z.infer<typeof WebhookEndpointSchema>;
export const WebhookEndpointListSchema = z.array(WebhookEndpointSchema);

export const CreateWebhookEndpointRequestSchema = z.object({
  url: z.string().trim().min(1).max(2000),
  events: z.array(WebhookEventTypeSchema).min(1).max(WEBHOOK_EVENT_TYPES.length),
});
export type CreateWebhookEndpointRequest = z.infer<typeof CreateWebhookEndpointRequestSchema>;

/** The answer to a creation, the only one that carries the secret. */
export const CreatedWebhookEndpointSchema = WebhookEndpointSchema.extend({ secret: z.string() });
export type CreatedWebhookEndpoint = z.infer<typeof CreatedWebhookEndpointSchema>;

export const WebhookDeliverySchema = z.object({
  id: z.string(),
  endpointId: z.string(),
  url: z.string(),
  type: WebhookDeliveryTypeSchema,
  createdAt: z.iso.datetime(),
  attempts: z.number().int(),
  /** The HTTP status of the last attempt; null when it got no answer (refused, timed out). */
  lastStatus: z.number().int().nullable(),
  lastError: z.string().nullable(),
  deliveredAt: z.iso.datetime().nullable(),
  /** When the next retry is due; null once delivered or given up. */
  nextAttemptAt: z.iso.datetime().nullable(),
});
export type WebhookDelivery = z.infer<typeof WebhookDeliverySchema>;

export const WebhookDeliveryPageQuerySchema = z.object({
  page: z.coerce.number().int().min(1).default(1),
  limit: z.coerce.number().int().min(1).max(500).default(DEFAULT_PAGE_SIZE),
});
export type WebhookDeliveryPageQuery = z.infer<typeof WebhookDeliveryPageQuerySchema>;

export const WebhookDeliveryPageSchema = z.object({
  deliveries: z.array(WebhookDeliverySchema),
  total: z.number().int(),
});
export type WebhookDeliveryPage = z.infer<typeof WebhookDeliveryPageSchema>;
