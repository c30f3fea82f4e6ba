import { z } from 'zod';
import { MsatSchema } from './payments.ts';

/**
 * A refund's life: `open` while its withdraw link waits for the customer's wallet, `paying` once
 * the wallet gave an invoice and Rayo pays it, `paid` when the node reports the payment done. A
 * payment that can no longer complete opens the link again.
 */
export const REFUND_STATES = ['open', 'paying', 'paid'] as const;
export const RefundStateSchema = z.enum(REFUND_STATES);
export type RefundState = z.infer<typeof RefundStateSchema>;

/**
 * How the customer receives the money: through a refund link any Lightning wallet opens (LUD-03),
 * paid by Rayo to a Lightning invoice (BOLT11) or Lightning address (LUD-16) the customer gave, or
 * sent on-chain by the platform wallet to a Bitcoin address the customer gave.
 */
export const REFUND_METHODS = ['lnurl-withdraw', 'lightning-invoice', 'lightning-address', 'onchain-address'] as const;
export const RefundMethodSchema = z.enum(REFUND_METHODS);
export type RefundMethod = z.infer<typeof RefundMethodSchema>;

export const CreateRefundRequestSchema = z.object({
  /** What goes back to the customer, at most what the sale received less its earlier refunds. */
  amountMsat: z.number().int().positive().max(Number.MAX_SAFE_INTEGER),
  /**
   * Chosen by the caller for this refund: sending the same key again (a double click, a retry
   * after a lost answer) answers the refund it made, and never makes a second one.
   */
  idempotencyKey: z.string().trim().min(8).max(128),
  /**
   * Where to pay it: a Lightning invoice for exactly `amountMsat` (`lightning:` prefix allowed), a
   * Lightning address, or a Bitcoin address of the server's network (`bitcoin:` prefix allowed,
   * without parameters; whole sats are sent, at least the dust limit). Without it the answer
   * carries a refund link for the customer's wallet.
   */
  destination: z.string().trim().min(1).max(2048).optional(),
});
export type CreateRefundRequest = z.infer<typeof CreateRefundRequestSchema>;

export const RefundSchema = z.object({
  id: z.string(),
  /** The ledger transaction of the sale it refunds. */
  transactionId: z.string(),
  amountMsat: MsatSchema,
  /** The same amount in the sale's currency at the sale's rate, as a decimal string. */
  fiatAmount: z.string(),
  currency: z.string(),
  method: RefundMethodSchema,
  state: RefundStateSchema,
  createdAt: z.iso.datetime(),
  createdBy: z.string().nullable(),
  paidAt: z.iso.datetime().nullable(),
  /** The invoice, Lightning address or Bitcoin address it is paid to; null for a refund link. */
  destination: z.string().nullable(),
  /** The transaction sending an on-chain refund (the newest, after a fee bump); null otherwise. */
  txid: z.string().nullable(),
  /**
   * The refund link as an LNURL (bech32, upper case, for the QR code); only admins see it, and
   * only while it can still be used: whoever holds it can take the money.
   */
  lnurl: z.string().nullable(),
});
export type Refund = z.infer<typeof RefundSchema>;

export const SaleRefundsSchema = z.object({
  /** What the sale received, and what may still be refunded. */
  saleMsat: MsatSchema,
  refundableMsat: MsatSchema,
  refunds: z.array(RefundSchema),
});
export type SaleRefunds = z.infer<typeof SaleRefundsSchema>;
