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

/** What the merchant has entered of what back office verifies. */
export const VerificationEntriesSchema = z.object({
  bankAccount: z.boolean(),
  onchainAddress: z.boolean(),
  lightningAddress: z.boolean(),
  kybDocument: z.boolean(),
});
export type VerificationEntries = z.infer<typeof VerificationEntriesSchema>;

/**
 * What each verification checks. Rayo keeps no conversion address of its own: the fiat part, once
 * converted, is paid into the bank account, so the conversion address is that account too.
 */
const ENTRY_OF: Record<Verification, keyof VerificationEntries> = {
  bank: 'bankAccount',
  crypto: 'onchainAddress',
  disbursementAddress: 'lightningAddress',
  conversionAddress: 'bankAccount',
  kyb: 'kybDocument',
};

export function isEntered(field: Verification, entries: VerificationEntries): boolean {
  return entries[ENTRY_OF[field]];
}

/** Verified; entered and waiting for back office's review; or nothing entered to review yet. */
export type VerificationState = 'verified' | 'awaitingReview' | 'notEntered';

export function verificationState(
  field: Verification,
  verifications: Verifications,
  entries: VerificationEntries,
): VerificationState {
  if (verifications[field]) return 'verified';
  return isEntered(field, entries) ? 'awaitingReview' : 'notEntered';
}

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
  entries: VerificationEntriesSchema,
});
export type PayoutSplitSettings = z.infer<typeof PayoutSplitSettingsSchema>;

/**
 * The verifications a split relies on (docs/decisions/0025-payout-split.md): the KYB documents
 * always, and the destination of each share it pays: the bank account (and so the conversion
 * address) for fiat, the on-chain address, the Lightning address.
 */
export function verificationsNeededFor(split: SplitPercents): Verification[] {
  const needed = new Set<Verification>(['kyb']);
  if (split.fiatPercent > 0) {
    needed.add('bank');
    needed.add('conversionAddress');
  }
  if (split.onchainPercent > 0) needed.add('crypto');
  if (split.lightningPercent > 0) needed.add('disbursementAddress');
  return VERIFICATIONS.filter((name) => needed.has(name));
}

/**
 * SPEC §4 and §5: the split changes only once the team has validated the information it relies
 * on. The verifications `split` needs that back office has not given yet, in SPEC's order.
 */
export function missingVerifications(verifications: Verifications, split: SplitPercents): Verification[] {
  return verificationsNeededFor(split).filter((name) => !verifications[name]);
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
