import { z } from 'zod';
import { LanguageSchema } from './auth.ts';
import { DEFAULT_PAGE_SIZE } from './constants.ts';
import { seriesBuckets, sortOrders, transactionSorts } from './dashboard-options.ts';
import { MsatSchema, PaidViaSchema, SaleSourceSchema, TransactionSchema } from './payments.ts';

/** `all`, or no account, means every account the caller may see (SPEC §7). */
export const AccountFilterSchema = z.union([z.literal('all'), z.uuid()]).optional();

/**
 * 10000-01-01T00:00:00Z, the end of the year 9999. A period becomes dates and local days, and a
 * bound much past this is a date neither JavaScript (to 275760) nor PostgreSQL (to 294276) holds;
 * no sale is that far out.
 */
export const MAX_UNIX_SECONDS = 253_402_300_800;
const UnixSecondsSchema = z.coerce.number().int().min(0).max(MAX_UNIX_SECONDS);

/** Unix seconds; `start` inclusive, `end` exclusive. Without them, the whole history. */
export const PeriodQuerySchema = z.object({
  start: UnixSecondsSchema.optional(),
  end: UnixSecondsSchema.optional(),
  account: AccountFilterSchema,
});
export type PeriodQuery = z.infer<typeof PeriodQuerySchema>;

/**
 * The ledger's list and its CSV also narrow to where sales came from and how they were paid.
 * The sums and charts do not: they read the daily rollup, which has no source
 * (docs/decisions/0046-sale-source.md).
 */
export const LedgerQuerySchema = PeriodQuerySchema.extend({
  source: SaleSourceSchema.optional(),
  paidVia: PaidViaSchema.optional(),
});
export type LedgerQuery = z.infer<typeof LedgerQuerySchema>;

export const TransactionPageQuerySchema = LedgerQuerySchema.extend({
  page: z.coerce.number().int().min(1).default(1),
  limit: z.coerce.number().int().min(1).max(500).default(DEFAULT_PAGE_SIZE),
  sort: z.enum(transactionSorts).default('settledAt'),
  order: z.enum(sortOrders).default('desc'),
});
export type TransactionPageQuery = z.infer<typeof TransactionPageQuerySchema>;

export const TransactionPageSchema = z.object({
  transactions: z.array(TransactionSchema),
  total: z.number().int(),
});
export type TransactionPage = z.infer<typeof TransactionPageSchema>;

/**
 * SPEC §3 "Transaction metrics" for a period. msat figures count every sale; fiat figures
 * count the sales priced in the organization's currency (`currency`), as decimal strings.
 * - receiveMsat: msat charged.
 * - msatsToDisburse: the bitcoin part of the income (Lightning + on-chain) not yet disbursed.
 * - receiveFiat: bill + tip + tax charged.
 * - fiatToDisburse: the fiat part of the income not yet disbursed.
 */
export const TransactionSumsSchema = z.object({
  msatsToDisburse: MsatSchema,
  receiveMsat: MsatSchema,
  fiatToDisburse: z.string(),
  receiveFiat: z.string(),
  currency: z.string(),
});
export type TransactionSums = z.infer<typeof TransactionSumsSchema>;

export const SeriesQuerySchema = PeriodQuerySchema.extend({ bucket: z.enum(seriesBuckets).default('day') });
export type SeriesQuery = z.infer<typeof SeriesQuerySchema>;

export const SeriesPointSchema = z.object({
  /** Start of the bucket, unix seconds, aligned to the organization's time zone. */
  start: z.number().int(),
  count: z.number().int(),
  salesMsat: MsatSchema,
  /** Sales in the organization's currency (bill + tip + tax), decimal string. */
  salesFiat: z.string(),
  tipsFiat: z.string(),
});
export const AccountTotalSchema = z.object({
  accountId: z.string(),
  name: z.string(),
  count: z.number().int(),
  salesMsat: MsatSchema,
  salesFiat: z.string(),
});
export const TransactionSeriesSchema = z.object({
  bucket: z.enum(seriesBuckets),
  timeZone: z.string(),
  currency: z.string(),
  points: z.array(SeriesPointSchema),
  byAccount: z.array(AccountTotalSchema),
});
export type TransactionSeries = z.infer<typeof TransactionSeriesSchema>;

/** The signed-in user's organization, as the dashboard needs it to compute periods and format money. */
/**
 * Why back office blocks an organization, which its members are told: information missing in
 * Settings (SPEC §8's 'Your organization is disabled, missing info in Settings'), or another
 * reason they take up with support.
 */
export const BLOCK_REASONS = ['missing_info', 'other'] as const;
export const BlockReasonSchema = z.enum(BLOCK_REASONS);
export type BlockReason = z.infer<typeof BlockReasonSchema>;

export const CurrentOrganizationSchema = z.object({
  id: z.string(),
  name: z.string(),
  countryCode: z.string().nullable(),
  timeZone: z.string(),
  currency: z.string(),
  /** The organization's language: public pages read in it when the visitor's browser asks for neither of ours. */
  language: LanguageSchema,
  /** Why back office blocked it from taking payments; null when it may sell. */
  blockedReason: BlockReasonSchema.nullable(),
});
export type CurrentOrganization = z.infer<typeof CurrentOrganizationSchema>;
