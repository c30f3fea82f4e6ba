import { z } from 'zod';
import { DEFAULT_PAGE_SIZE } from './constants.ts';

// Payouts of an organization's shares of its sales (DESIGN §4, docs/api.md "Payouts").

/** The life of a payout (DESIGN §4): `pending → sent | failed (retrying) → cancelled`; the `payouts.state` column holds these. */
export const PAYOUT_STATES = ['pending', 'sent', 'failed', 'cancelled'] as const;
export const PayoutStateSchema = z.enum(PAYOUT_STATES);
export type PayoutState = z.infer<typeof PayoutStateSchema>;

/** States in which the payout job still works on a payout; only a Lightning payout in one may be cancelled. */
export const OPEN_PAYOUT_STATES: readonly PayoutState[] = ['pending', 'failed'];

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

/**
 * Why an organization's on-chain shares were left out of the last payout run
 * (docs/decisions/0037-on-chain-payouts.md): the platform wallet cannot cover them yet, they are below the minimum,
 * the address changed recently, an earlier batch is not on the chain yet, no address is set, the
 * organization is blocked, the platform has no wallet; `next_run` when no run has looked at them yet.
 */
export const ONCHAIN_WAIT_REASONS = [
  'wallet_funds',
  'below_minimum',
  'destination_hold',
  'batch_pending',
  'no_address',
  'blocked',
  'no_wallet',
  'next_run',
] as const;
export const OnchainWaitReasonSchema = z.enum(ONCHAIN_WAIT_REASONS);
export type OnchainWaitReason = z.infer<typeof OnchainWaitReasonSchema>;

/** The organization's on-chain shares not in any payout yet, in whole sats, and why they wait. */
export const OnchainWaitingSchema = z.object({
  owedSats: z.number().int(),
  reason: OnchainWaitReasonSchema,
  /** When they began waiting for this reason; null for `next_run`. */
  since: z.iso.datetime().nullable(),
  /** CHAIN_PAYOUT_MIN_SATS, which `below_minimum` refers to. */
  minimumSats: z.number().int(),
});
export type OnchainWaiting = z.infer<typeof OnchainWaitingSchema>;

export const PayoutPageSchema = z.object({
  payouts: z.array(PayoutSchema),
  total: z.number().int(),
  fiat: z.array(FiatShareSchema),
  /** The destinations payouts wait on, and why. */
  holds: z.array(PayoutHoldSchema),
  /** On-chain shares not paid out yet; null when there are none. */
  onchainWaiting: OnchainWaitingSchema.nullable(),
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
  /** Organizations paid and customers refunded on-chain: one output each. */
  outputs: z.number().int(),
  amountSats: z.number().int(),
  feeSats: z.number().int(),
  vsize: z.number().int(),
  confirmations: z.number().int(),
  attempts: z.number().int(),
  lastError: z.string().nullable(),
  /** The fee rate its transaction pays, sat/vB. */
  feeRate: z.number().int(),
  /** The transactions fee bumps replaced, oldest first; the chain may still take one of them. */
  replacedTxids: z.array(z.string()),
  /** No block has its transaction yet, so a replacement at a higher fee may still take its place. */
  replaceable: z.boolean(),
});
export type OnchainPayoutBatch = z.infer<typeof OnchainPayoutBatchSchema>;

/** A higher fee for a batch stuck unconfirmed (BIP 125 replacement); without `feeRate`, the current estimate. */
export const BumpBatchFeeRequestSchema = z.object({ feeRate: z.number().int().min(1).max(1000).optional() });
export type BumpBatchFeeRequest = z.infer<typeof BumpBatchFeeRequestSchema>;

export const OnchainPayoutBatchListSchema = z.array(OnchainPayoutBatchSchema);

/** One organization whose on-chain shares wait, for back office. */
export const OnchainWaitingOrganizationSchema = OnchainWaitingSchema.omit({ minimumSats: true }).extend({
  organizationId: z.string(),
  organizationName: z.string(),
});
export type OnchainWaitingOrganization = z.infer<typeof OnchainWaitingOrganizationSchema>;

/**
 * The platform wallet as back office sees it (docs/api.md "On-chain payouts"): what the
 * organizations are owed on-chain, what the wallet holds (confirmed, and on its way), what waits
 * and why, where to fund it, and the run of unused receive addresses a restored wallet must look past.
 */
export const OnchainWalletSummarySchema = z.object({
  chain: z.enum(['devnet', 'esplora']),
  network: z.enum(['mainnet', 'testnet', 'signet', 'regtest']),
  /** `hot`: Rayo signs (CHAIN_PAYOUT_XPRV); `operator`: batches wait as PSBTs; null: no platform wallet. */
  signing: z.enum(['hot', 'operator']).nullable(),
  /** Unpaid on-chain shares and payouts not sent yet, in whole sats. */
  owedSats: z.number().int(),
  organizationsOwed: z.number().int(),
  /** Confirmed coins the batches can spend. */
  heldSats: z.number().int(),
  /** Coins the chain has not confirmed yet: spendable once it has. */
  unconfirmedSats: z.number().int(),
  waitingSats: z.number().int(),
  waiting: z.array(OnchainWaitingOrganizationSchema),
  minimumSats: z.number().int(),
  /** The newest deposit address handed out; null before the first. */
  depositAddress: z.string().nullable(),
  /** Receive addresses handed out after the last one paid: a wallet's gap limit must exceed it. */
  unusedReceiveAddresses: z.number().int(),
});
export type OnchainWalletSummary = z.infer<typeof OnchainWalletSummarySchema>;

export const DepositAddressSchema = z.object({ address: z.string() });
export type DepositAddress = z.infer<typeof DepositAddressSchema>;

/** The operator's signed batch: the PSBT in base64, or the raw transaction in hex. */
export const SignedBatchRequestSchema = z.object({ transaction: z.string().trim().min(1).max(400_000) });
export type SignedBatchRequest = z.infer<typeof SignedBatchRequestSchema>;

/** The cancel link mailed to every admin when a payout destination changes. */
export const CancelDestinationChangeRequestSchema = z.object({ token: z.string().trim().min(1).max(200) });
export type CancelDestinationChangeRequest = z.infer<typeof CancelDestinationChangeRequestSchema>;

/** A cancelled change: its destination is back to what it was before. */
export const CancelledDestinationChangeSchema = z.object({ kind: PayoutDestinationKindSchema });
export type CancelledDestinationChange = z.infer<typeof CancelledDestinationChangeSchema>;
