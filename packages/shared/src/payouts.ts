import { z } from 'zod';
import { DEFAULT_PAGE_SIZE } from './constants.ts';

// Payouts of an organization's shares of its sales (DESIGN §4, docs/api.md "Payouts").

export const PAYOUT_STATES = ['pending', 'sent', 'failed', 'cancelled'] as const;
export const PayoutStateSchema = z.enum(PAYOUT_STATES);
export type PayoutStateName = z.infer<typeof PayoutStateSchema>;

export const PayoutQuerySchema = z.object({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(DEFAULT_PAGE_SIZE),
});
export type PayoutQuery = z.infer<typeof PayoutQuerySchema>;

/** One payout: msat figures as numbers (safe integers: one payout is far below 2^53 msat). */
export const PayoutSchema = z.object({
  id: z.string(),
  createdAt: z.iso.datetime(),
  kind: z.enum(['lightning', 'onchain']),
  destination: z.string(),
  amountMsat: z.number().int(),
  /** The routing fee (Lightning) or miner fee (on-chain) the platform paid on top. */
  feeMsat: z.number().int(),
  state: PayoutStateSchema,
  attempts: z.number().int(),
  paymentHash: z.string().nullable(),
  txid: z.string().nullable(),
  /** On-chain: how deep the chain has the batch's transaction, once it has it; else null. */
  confirmations: z.number().int().nullable(),
  sentAt: z.iso.datetime().nullable(),
});
export type Payout = z.infer<typeof PayoutSchema>;

/** The fiat share per currency: awaiting the bank transfer, and marked paid by back office. */
export const FiatShareSchema = z.object({
  currency: z.string(),
  awaitingMinor: z.number().int(),
  paidMinor: z.number().int(),
});
export type FiatShare = z.infer<typeof FiatShareSchema>;

/** Where an organization is paid: its Lightning address, its on-chain address, its bank account. */
export const PAYOUT_DESTINATION_KINDS = ['lightning', 'onchain', 'bank'] as const;
export const PayoutDestinationKindSchema = z.enum(PAYOUT_DESTINATION_KINDS);
export type PayoutDestinationKind = z.infer<typeof PayoutDestinationKindSchema>;

/**
 * Payouts to a destination wait after it changed (docs/api.md "Payouts"): until back office
 * verifies it, or until `releaseAt`, the end of its cool-down; null when only back office's
 * verification releases it (the admins could not be mailed).
 */
export const PayoutHoldSchema = z.object({
  changeId: z.string(),
  kind: PayoutDestinationKindSchema,
  changedAt: z.iso.datetime(),
  releaseAt: z.iso.datetime().nullable(),
});
export type PayoutHold = z.infer<typeof PayoutHoldSchema>;

export const PayoutPageSchema = z.object({
  payouts: z.array(PayoutSchema),
  total: z.number().int(),
  fiat: z.array(FiatShareSchema),
  /** The destinations payouts wait on, and why. */
  holds: z.array(PayoutHoldSchema),
});
export type PayoutPage = z.infer<typeof PayoutPageSchema>;

// On-chain payout batches for back office (docs/integrations.md "On-chain payouts").

export const ONCHAIN_BATCH_STATES = ['awaiting_signature', 'signed', 'broadcast', 'confirmed'] as const;

/** One Bitcoin transaction paying a run's on-chain payouts. */
export const OnchainPayoutBatchSchema = z.object({
  id: z.string(),
  createdAt: z.iso.datetime(),
  state: z.enum(ONCHAIN_BATCH_STATES),
  txid: z.string(),
  /** Organizations paid: one output each. */
  outputs: z.number().int(),
  amountSats: z.number().int(),
  feeSats: z.number().int(),
  vsize: z.number().int(),
  confirmations: z.number().int(),
  attempts: z.number().int(),
  lastError: z.string().nullable(),
});
export type OnchainPayoutBatch = z.infer<typeof OnchainPayoutBatchSchema>;

export const OnchainPayoutBatchListSchema = z.array(OnchainPayoutBatchSchema);

/** The operator's signed batch: the PSBT in base64, or the raw transaction in hex. */
export const SignedBatchRequestSchema = z.object({ transaction: z.string().trim().min(1).max(400_000) });
export type SignedBatchRequest = z.infer<typeof SignedBatchRequestSchema>;

/** The cancel link mailed to every admin when a payout destination changes. */
export const CancelDestinationChangeRequestSchema = z.object({ token: z.string().trim().min(1).max(200) });
export type CancelDestinationChangeRequest = z.infer<typeof CancelDestinationChangeRequestSchema>;

/** A cancelled change: its destination is back to what it was before. */
export const CancelledDestinationChangeSchema = z.object({ kind: PayoutDestinationKindSchema });
export type CancelledDestinationChange = z.infer<typeof CancelledDestinationChangeSchema>;
