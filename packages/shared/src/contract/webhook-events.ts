import { z } from 'zod';
import { CheckoutKindSchema, CheckoutStatusSchema, MoneySchema } from '../checkouts.ts';
import { CurrencyCodeSchema, PaidViaSchema } from '../payments.ts';
import type { WebhookDeliveryType } from '../webhooks.ts';

/**
 * What Rayo POSTs to a merchant's webhook endpoints (docs/api.md "Webhooks"): the OpenAPI
 * document's `webhooks`, one per event type, with the body and the signature headers.
 */

/** What every checkout event says of its checkout. */
const CheckoutFieldsSchema = z.object({
  checkoutId: z.string(),
  kind: CheckoutKindSchema,
  orderId: z.string().nullable(),
  status: CheckoutStatusSchema,
  amount: MoneySchema,
  paidVia: PaidViaSchema.nullable(),
  /** Paid after its expiry. */
  late: z.boolean(),
  metadata: z.record(z.string(), z.unknown()).nullable(),
});

export const CheckoutEventDataSchema = CheckoutFieldsSchema.extend({
  /** What the payment asked for; null when none was asked yet. */
  amountSats: z.number().int().nullable(),
});

const RefundAmountSchema = z.object({
  amountMsat: z.number().int(),
  currency: CurrencyCodeSchema,
  amountMinor: z.number().int(),
  value: z.string(),
});

export const CheckoutRefundedDataSchema = CheckoutFieldsSchema.extend({
  /** This refund; its id is the same on every retry and redelivery, to record it once. */
  refund: RefundAmountSchema.extend({ id: z.string(), createdAt: z.iso.datetime() }),
  /** What the refunds of the checkout's sales add up to so far, this one included. */
  refunded: RefundAmountSchema,
});

export const DonationReceivedDataSchema = z.object({
  donationId: z.string(),
  donationLinkId: z.string(),
  title: z.string(),
  amount: MoneySchema,
  amountSats: z.number().int(),
  /** Millisatoshis as a decimal string. */
  amountMsat: z.string(),
  comment: z.string().nullable(),
  receivedAt: z.iso.datetime(),
});

export const TestEventDataSchema = z.object({ test: z.literal(true) });

/** Each delivery type's `data`, and when it is sent. */
export const webhookEvents = {
  'checkout.paid': {
    summary: "A store checkout's payments cover its price (`late` when after its expiry)",
    data: CheckoutEventDataSchema,
  },
  'checkout.processing': {
    summary: 'An on-chain payment to a store checkout is seen and confirming',
    data: CheckoutEventDataSchema,
  },
  'checkout.underpaid': {
    summary: "The outputs to a store checkout's address add up to less than its amount",
    data: CheckoutEventDataSchema,
  },
  'checkout.expired': { summary: 'A store checkout expired unpaid', data: CheckoutEventDataSchema },
  'checkout.refunded': {
    summary: "An admin refunded (part of) a paid store checkout's sale, sent once per refund",
    data: CheckoutRefundedDataSchema,
  },
  'donation.received': {
    summary: 'A donation (donation link or Lightning address) is paid',
    data: DonationReceivedDataSchema,
  },
  'webhook.test': { summary: 'An admin pressed "Send test" on the endpoint', data: TestEventDataSchema },
} as const satisfies Record<WebhookDeliveryType, { summary: string; data: z.ZodType }>;

/** The body of one delivery of `type`. */
export function webhookEventSchema<Type extends WebhookDeliveryType>(type: Type) {
  return z.object({
    /** The delivery id, as in the `Rayo-Delivery` header. */
    id: z.string(),
    type: z.literal(type),
    createdAt: z.iso.datetime(),
    data: webhookEvents[type].data,
  });
}
