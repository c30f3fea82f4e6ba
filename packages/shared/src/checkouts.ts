import { z } from 'zod';
import { LanguageSchema } from './auth.ts';
import { PublicCheckoutOnchainSchema } from './onchain.ts';
import { CurrencyCodeSchema, DecimalStringSchema, MsatSchema, PaidViaSchema } from './payments.ts';
import { checkoutStatuses } from './statuses.ts';

/** A payment link an admin made, or a store's order (`POST /api/checkouts`). */
export const checkoutKinds = ['payment_link', 'store'] as const;
export const CheckoutKindSchema = z.enum(checkoutKinds);
export type CheckoutKind = z.infer<typeof CheckoutKindSchema>;

/**
 * SPEC §4 for payment links: created 'Awaiting payment', processing 'Processing payment' (an
 * on-chain payment seen, confirming), settled 'Payment completed'. Only store checkouts expire.
 */
export const CheckoutStatusSchema = z.enum(checkoutStatuses);
export type CheckoutStatus = z.infer<typeof CheckoutStatusSchema>;

/** An amount as a decimal string in `currency` (`SAT` for satoshis). */
export const MoneySchema = z.object({ currency: z.string(), value: z.string() });
export type Money = z.infer<typeof MoneySchema>;

export const CheckoutStatusEventSchema = z.object({ id: z.string(), status: CheckoutStatusSchema });
export type CheckoutStatusEvent = z.infer<typeof CheckoutStatusEventSchema>;

/**
 * Part of a checkout's price arrived (on-chain, short) and the rest is still to pay, by either
 * method: what arrived and what is missing, in the checkout's own currency and in satoshis.
 */
export const CheckoutUnderpaidSchema = z.object({
  received: MoneySchema,
  missing: MoneySchema,
  receivedSats: z.number().int().nonnegative(),
  missingSats: z.number().int().positive(),
});
export type CheckoutUnderpaid = z.infer<typeof CheckoutUnderpaidSchema>;

/** What anyone with the link sees at `/ecommerce/checkout/:id`: of the merchant, only name, logo and colour. */
export const PublicCheckoutSchema = z.object({
  id: z.string(),
  kind: CheckoutKindSchema,
  status: CheckoutStatusSchema,
  description: z.string(),
  orderId: z.string().nullable(),
  merchant: z.object({ name: z.string(), logoUrl: z.string().nullable(), accentColor: z.string().nullable() }),
  /** The merchant's country, so that the page writes money as the terminal does there (Q 73.00 in Guatemala). */
  countryCode: z.string().nullable(),
  /** The merchant's language, for a buyer whose browser asks for neither of ours. */
  language: LanguageSchema,
  /** The amount as it was set: fiat of the linked BPT's currency, or satoshis. */
  amount: MoneySchema,
  /** Its worth in the linked BPT's currency at the current invoice's locked rate; null before one exists. */
  fiatAmount: MoneySchema.nullable(),
  /** The whole price in satoshis, as the current (or paying) invoice or the on-chain quote asks it. */
  amountSats: z.number().int().nonnegative().nullable(),
  /** The Lightning invoice to pay now; null once paid or expired. */
  invoice: z
    .object({ id: z.string(), paymentRequest: z.string(), amountMsat: MsatSchema, expiresAt: z.iso.datetime() })
    .nullable(),
  /** When a store checkout stops taking payments; null for payment links, which stay open. */
  expiresAt: z.iso.datetime().nullable(),
  /** The receipt tokens of the checkout's paid sales (usually one), only once paid. */
  receiptTokens: z.array(z.string()),
  /** The store's page to return to, only once paid. */
  redirectUrl: z.string().nullable(),
  /**
   * For a Shopify or Ecwid order: whether the shop has been told it is paid, so the way back
   * does not land on an order still waiting for payment. Null for every other checkout.
   */
  storeNotified: z.boolean().nullable(),
  paidVia: PaidViaSchema.nullable(),
  paidAt: z.iso.datetime().nullable(),
  /** Paid after it expired: recorded, and flagged for the merchant. */
  latePayment: z.boolean(),
  /** A second payment arrived after it was paid: in the ledger, flagged. */
  extraPayment: z.boolean(),
  /** Null unless part of the price arrived and the rest is missing; `invoice` then asks only the rest. */
  underpaid: CheckoutUnderpaidSchema.nullable(),
  /** The on-chain option; null when no on-chain wallet is configured or the checkout takes no new payment. */
  onchain: PublicCheckoutOnchainSchema.nullable(),
});
export type PublicCheckout = z.infer<typeof PublicCheckoutSchema>;

// Payment links (SPEC §3: description, amount, status)
export const PaymentLinkSchema = z.object({
  id: z.string(),
  virtualBptId: z.string(),
  virtualBptName: z.string(),
  description: z.string(),
  amount: MoneySchema,
  status: CheckoutStatusSchema,
  latePayment: z.boolean(),
  extraPayment: z.boolean(),
  /** Null unless part of the price arrived and the rest is missing ('Underpaid'). */
  underpaid: CheckoutUnderpaidSchema.nullable(),
  paidAt: z.iso.datetime().nullable(),
  /** How it was paid, once paid. */
  paidVia: PaidViaSchema.nullable(),
  createdAt: z.iso.datetime(),
});
export type PaymentLink = z.infer<typeof PaymentLinkSchema>;
export const PaymentLinkListSchema = z.array(PaymentLinkSchema);

export const CreatePaymentLinkRequestSchema = z.object({
  description: z.string().trim().min(1).max(300),
  amount: DecimalStringSchema,
  /** `SAT`, or the linked BPT's currency. */
  currency: CurrencyCodeSchema,
});
export type CreatePaymentLinkRequest = z.infer<typeof CreatePaymentLinkRequestSchema>;

/** The public address of a checkout, as merchants share it. */
export function checkoutPath(id: string): string {
  return `/ecommerce/checkout/${id}`;
}
