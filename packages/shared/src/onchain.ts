import { z } from 'zod';

/** SPEC §9: an on-chain payment counts once it has this many confirmations. */
export const ONCHAIN_REQUIRED_CONFIRMATIONS = 4;

export const onchainStates = ['awaiting_payment', 'confirming', 'underpaid', 'confirmed'] as const;
export const OnchainStateSchema = z.enum(onchainStates);
export type OnchainStateName = z.infer<typeof OnchainStateSchema>;

/** A checkout's on-chain option: its own address, and what has arrived there so far. */
export const PublicCheckoutOnchainSchema = z.object({
  address: z.string(),
  /** `bitcoin:<address>?amount=<BTC>` for what is still to pay (the whole amount before anything arrived). */
  bip21Uri: z.string(),
  amountSats: z.number().int().positive(),
  receivedSats: z.number().int().nonnegative(),
  missingSats: z.number().int().nonnegative(),
  /** Of the least confirmed payment to the address, counted up to `requiredConfirmations`. */
  confirmations: z.number().int().nonnegative(),
  requiredConfirmations: z.number().int().positive(),
  state: OnchainStateSchema,
});
export type PublicCheckoutOnchain = z.infer<typeof PublicCheckoutOnchainSchema>;

// The devnet wallet's chain tools.
export const DevnetMineRequestSchema = z.object({ blocks: z.number().int().min(1).max(100).default(1) });
export const DevnetMineResponseSchema = z.object({ height: z.number().int().nonnegative() });
export type DevnetMineResponse = z.infer<typeof DevnetMineResponseSchema>;
export const DevnetSendRequestSchema = z.object({
  address: z.string().trim().min(1).max(100),
  sats: z.number().int().min(1).max(2_100_000_000),
});
export const DevnetSendResponseSchema = z.object({ txid: z.string() });
export type DevnetSendResponse = z.infer<typeof DevnetSendResponseSchema>;
export const DevnetChainTipSchema = z.object({ height: z.number().int().nonnegative() });
export type DevnetChainTip = z.infer<typeof DevnetChainTipSchema>;
