import { z } from 'zod';
import { CheckoutStatusSchema, MoneySchema } from './checkouts.ts';
import { CurrencyCodeSchema, DecimalStringSchema, PaidViaSchema } from './payments.ts';

/** What a store's own metadata may weigh, as JSON text. */
export const STORE_METADATA_MAX_BYTES = 4096;

/**
 * `POST /api/checkouts`: a store's order to be paid on the hosted checkout. The amount is a
 * decimal string in `currency`, the virtual BPT's fiat currency or `SAT`.
 */
export const CreateStoreCheckoutRequestSchema = z.object({
  amount: DecimalStringSchema,
  currency: CurrencyCodeSchema,
  orderId: z
    .string()
    .trim()
    .min(1)
    .max(100)
    .regex(/^[\x20-\x7e]+$/, 'printable ASCII only'),
  /** Where the payer returns once paid: https, or http on loopback in devnet. */
  redirectUrl: z.string().trim().max(2000).optional(),
  metadata: z.record(z.string().max(100), z.unknown()).optional(),
  /** Optional when the organization has exactly one virtual BPT. */
  virtualBptId: z.uuid().optional(),
  /** How long the payer has to pay: 1 minute to 24 hours; the terminal invoice's life (15 minutes) by default. */
  expiresInSeconds: z.number().int().min(60).max(86_400).optional(),
  /** Shown to the payer; the order id by default. */
  description: z.string().trim().min(1).max(300).optional(),
});
export type CreateStoreCheckoutRequest = z.infer<typeof CreateStoreCheckoutRequestSchema>;

/**
 * The public store button's variant: the virtual BPT is in the path, and there is no order id.
 * Anyone may call it, so an order id chosen there could take one the store's server will use;
 * its checkouts are named `button-<random>` instead, and the caller's reference goes in `metadata`.
 */
export const CreatePublicStoreCheckoutRequestSchema = CreateStoreCheckoutRequestSchema.omit({
  virtualBptId: true,
  orderId: true,
});
export type CreatePublicStoreCheckoutRequest = z.infer<typeof CreatePublicStoreCheckoutRequestSchema>;

/** A store checkout as the store reads it back. */
export const StoreCheckoutSchema = z.object({
  id: z.string(),
  /** The hosted page to send the payer to. */
  url: z.string(),
  status: CheckoutStatusSchema,
  orderId: z.string(),
  virtualBptId: z.string(),
  amount: MoneySchema,
  description: z.string(),
  redirectUrl: z.string().nullable(),
  metadata: z.record(z.string(), z.unknown()).nullable(),
  expiresAt: z.iso.datetime().nullable(),
  paidVia: PaidViaSchema.nullable(),
  paidAt: z.iso.datetime().nullable(),
  latePayment: z.boolean(),
  extraPayment: z.boolean(),
  createdAt: z.iso.datetime(),
});
export type StoreCheckout = z.infer<typeof StoreCheckoutSchema>;
