import { z } from 'zod';
import { type PayoutSplit, SATS } from './money.ts';

// The payout split (SPEC §2 "payment split percentages 1-3", "fiat conversion"; DESIGN §4):
// how a sale's income is paid out, in whole percent to the bank (converted to fiat), to the
// on-chain address and to the Lightning address. The wire format and the rule of which
// verifications a change needs are shared, so the settings screen says what the server will.

/** SPEC §8, word for word: the answer to a split change before the team has verified everything. */
export const SPLIT_NEEDS_VALIDATION_MESSAGE =
  'Your information needs to be validated by our team before you can change the payment split';

/** What back office verifies on an organization (SPEC §3 "Organization", §4), in SPEC's order. */
export const VERIFICATIONS = ['bank', 'crypto', 'disbursementAddress', 'conversionAddress', 'kyb'] as const;
export type Verification = (typeof VERIFICATIONS)[number];

export const VerificationsSchema = z.object({
  bank: z.boolean(),
  crypto: z.boolean(),
  disbursementAddress: z.boolean(),
  conversionAddress: z.boolean(),
  kyb: z.boolean(),
});
export type Verifications = z.infer<typeof VerificationsSchema>;

const PercentSchema = z.number().int().min(0).max(100);

const SplitFieldsSchema = z.object({
  fiatPercent: PercentSchema,
  onchainPercent: PercentSchema,
  lightningPercent: PercentSchema,
});
export type SplitPercents = z.infer<typeof SplitFieldsSchema>;

export function splitAddsUp(split: SplitPercents): boolean {
  return split.fiatPercent + split.onchainPercent + split.lightningPercent === 100;
}

export const PayoutSplitRequestSchema = SplitFieldsSchema.refine(splitAddsUp, {
  message: 'The fiat, on-chain and Lightning parts must add up to 100',
});
export type PayoutSplitRequest = z.infer<typeof PayoutSplitRequestSchema>;

export const PayoutSplitSettingsSchema = SplitFieldsSchema.extend({
  /** The currency the fiat part is paid in: the organization's. */
  currency: z.string(),
  /** The operator's fee on the part converted to fiat, in percent with two decimals ("1.00"). */
  conversionFeePercent: z.string(),
  verifications: VerificationsSchema,
});
export type PayoutSplitSettings = z.infer<typeof PayoutSplitSettingsSchema>;

/**
 * The verifications still missing before the split may change. SPEC §4 says the split "may
 * only be updated after all fields are verified", so every one of them counts, whatever the new
 * split pays where; see "The payout split" in docs/decisions.md.
 */
export function missingVerifications(verifications: Verifications): Verification[] {
  return VERIFICATIONS.filter((name) => !verifications[name]);
}

export function percentsToBps(split: SplitPercents): PayoutSplit {
  return {
    fiatBps: split.fiatPercent * 100,
    onchainBps: split.onchainPercent * 100,
    lightningBps: split.lightningPercent * 100,
  };
}

/**
 * The split a sale settles with. A sale priced in SAT has no fiat rate locked to convert at, so
 * its fiat part is paid in Lightning instead, and the ledger row says so.
 */
export function splitForSale(split: PayoutSplit, saleCurrency: string): PayoutSplit {
  if (saleCurrency !== SATS) return split;
  return { fiatBps: 0, onchainBps: split.onchainBps, lightningBps: split.lightningBps + split.fiatBps };
}
