import { z } from 'zod';
import { ALL_COUNTRIES_ID, BACK_OFFICE_EXPORT_PAGE_SIZE } from './constants.ts';
import { TransactionSchema } from './payments.ts';

/**
 * The most transactions one mark-paid call takes, and the most unpaid ids a list or a report
 * row carries: the oldest first, so paying them brings the next ones up.
 */
export const PAY_TRANSACTIONS_LIMIT = 10_000;

/** A sale whose fiat part back office has not paid yet, with its fiat income in minor units to add up. */
export const UnpaidTransactionSchema = TransactionSchema.extend({
  fiatIncomeMinor: z.string().regex(/^\d+$/),
});
export type UnpaidTransaction = z.infer<typeof UnpaidTransactionSchema>;
export const UnpaidTransactionListSchema = z.array(UnpaidTransactionSchema);

/** A country's id, or SPEC §3's -1 for all of them. */
export const CountryReportParamsSchema = z.object({
  id: z.coerce.number().int().min(ALL_COUNTRIES_ID).max(2_147_483_647),
});

export const PayTransactionsRequestSchema = z.object({
  transactionsIds: z.array(z.uuid()).max(PAY_TRANSACTIONS_LIMIT),
  /**
   * The organizations back office confirms it paid although they have no bank account in Rayo
   * (paid some other way); without it, their sales are refused with `BankAccountMissing`.
   */
  withoutBankAccount: z.array(z.uuid()).max(PAY_TRANSACTIONS_LIMIT).optional(),
});
export type PayTransactionsRequest = z.infer<typeof PayTransactionsRequestSchema>;

export const PayTransactionsResponseSchema = z.object({ paid: z.number().int().nonnegative() });
export type PayTransactionsResponse = z.infer<typeof PayTransactionsResponseSchema>;

export const OrganizationTransactionsQuerySchema = z.object({
  page: z.coerce.number().int().min(1).default(1),
  limit: z.coerce.number().int().min(1).max(BACK_OFFICE_EXPORT_PAGE_SIZE).default(BACK_OFFICE_EXPORT_PAGE_SIZE),
});
export type OrganizationTransactionsQuery = z.infer<typeof OrganizationTransactionsQuerySchema>;
/** A sale of the export, with its account's name, which the ledger CSV's columns carry (TRANSACTIONS_CSV_COLUMNS). */
export const OrganizationTransactionSchema = TransactionSchema.extend({ accountName: z.string() });
export type OrganizationTransaction = z.infer<typeof OrganizationTransactionSchema>;
export const OrganizationTransactionsPageSchema = z.array(OrganizationTransactionSchema);

/** An amount of one currency, as a decimal string in its major unit. */
export const CurrencyAmountSchema = z.object({ currency: z.string(), amount: z.string() });
export type CurrencyAmount = z.infer<typeof CurrencyAmountSchema>;

/**
 * SPEC §3 country report row. Paid and pending count only sales with a fiat part; paid means
 * disbursed. `paidMsat` is the msat of those fiat parts; `feeUsdEarned` is the platform's fee
 * of all the organization's sales in US dollars; `transactions` are its unpaid sales, oldest
 * first, at most PAY_TRANSACTIONS_LIMIT of `pendingTransactionsCount`.
 */
export const CountryReportRowSchema = z.object({
  organizationId: z.string(),
  organizationName: z.string(),
  paidFiat: z.array(CurrencyAmountSchema),
  paidMsat: z.string().regex(/^\d+$/),
  paidTransactionsCount: z.number().int(),
  pendingTransactionsCount: z.number().int(),
  feeUsdEarned: z.string(),
  transactions: z.array(z.object({ id: z.string() })),
  /** Whether the organization entered a bank account, where its fiat is paid. */
  hasBankAccount: z.boolean(),
});
export type CountryReportRow = z.infer<typeof CountryReportRowSchema>;

/** SPEC §3 country report totals. `paidSats` is the sum of paidMsat divided by 1000, rounded down. */
export const CountryReportTotalsSchema = z.object({
  pendingTransactions: z.number().int(),
  paidTransactions: z.number().int(),
  organizations: z.number().int(),
  activeOrganizations: z.number().int(),
  paidSats: z.string().regex(/^\d+$/),
  paidFiat: z.array(CurrencyAmountSchema),
  feeUsd: z.string(),
});
export type CountryReportTotals = z.infer<typeof CountryReportTotalsSchema>;

export const CountryReportSchema = z.object({
  rows: z.array(CountryReportRowSchema),
  totals: CountryReportTotalsSchema,
});
export type CountryReport = z.infer<typeof CountryReportSchema>;
