import { z } from 'zod';
import { LanguageSchema } from './auth.ts';
import { MsatSchema, SaleSourceSchema } from './payments.ts';
import { EmailSchema } from './validation.ts';

export { RECEIPT_TOKEN_BYTES, receiptPath } from './receipt-path.ts';

/** A receipt token's shape (`RECEIPT_TOKEN_BYTES` in base64url); anything else is not a receipt's. */
export const ReceiptTokenSchema = z.string().regex(/^[A-Za-z0-9_-]{32}$/);

/** The receipt link of a paid sale, as the paid screens ask for it. */
export const ReceiptLinkSchema = z.object({ token: z.string() });
export type ReceiptLink = z.infer<typeof ReceiptLinkSchema>;

/** A refund the customer was paid, as the receipt lists it: in the sale's currency and in sats. */
export const ReceiptRefundSchema = z.object({
  amountMsat: MsatSchema,
  fiatAmount: z.string(),
  paidAt: z.iso.datetime(),
});
export type ReceiptRefund = z.infer<typeof ReceiptRefundSchema>;

/**
 * What a receipt shows (`GET /api/public/receipts/:token`): the merchant, when, and every figure
 * of the sale as it was stored at settlement. Fiat figures are decimal strings in `currency`.
 */
export const ReceiptSchema = z.object({
  merchant: z.object({ name: z.string(), logoUrl: z.string().nullable(), accentColor: z.string().nullable() }),
  /** The merchant's country and language, so the page writes figures as they are written there. */
  countryCode: z.string().nullable(),
  language: LanguageSchema,
  /** The organization's time zone; the receipt's time is read on its clock. */
  timeZone: z.string(),
  settledAt: z.iso.datetime(),
  source: SaleSourceSchema,
  description: z.string(),
  currency: z.string(),
  billAmount: z.string(),
  tip: z.string(),
  tax: z.string(),
  total: z.string(),
  totalMsat: MsatSchema,
  /** Satoshis per unit of `currency` at the rate locked for the sale, as a decimal string. */
  rate: z.string(),
  /** Lightning: the payment hash the wallet shows. On-chain: the transactions that paid. */
  paymentHash: z.string().nullable(),
  txids: z.array(z.string()),
  /** Refunds paid to the customer, oldest first. */
  refunds: z.array(ReceiptRefundSchema),
});
export type Receipt = z.infer<typeof ReceiptSchema>;

export const ReceiptLanguageQuerySchema = z.object({ language: LanguageSchema.optional() });
export type ReceiptLanguageQuery = z.infer<typeof ReceiptLanguageQuerySchema>;

/** The customer's address, used to send this one mail and not kept. */
export const EmailReceiptRequestSchema = z.object({ email: EmailSchema, language: LanguageSchema });
export type EmailReceiptRequest = z.infer<typeof EmailReceiptRequestSchema>;
