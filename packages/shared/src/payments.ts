import { z } from 'zod';
import { LanguageSchema } from './auth.ts';
import { PublicBrandingSchema } from './branding.ts';
import { saleSources } from './dashboard-options.ts';
import { invoiceStatuses } from './statuses.ts';

/** A decimal amount as typed on a keypad: digits, optionally a dot and more digits. */
export const DecimalStringSchema = z
  .string()
  .trim()
  .regex(/^\d{1,15}(\.\d{1,8})?$/);

/** msat travel as JSON numbers only while they are safe integers (DESIGN §4). */
export const MsatSchema = z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER);

export const CurrencyCodeSchema = z
  .string()
  .trim()
  .toUpperCase()
  .regex(/^[A-Z]{3}$/);

export const CurrencySchema = z.object({ code: z.string(), isFiat: z.boolean() });
export type Currency = z.infer<typeof CurrencySchema>;
export const CurrencyListSchema = z.array(CurrencySchema);

// Accounts (SPEC §3: id, name, optional internal code)
export const AccountSchema = z.object({ id: z.string(), name: z.string(), internalCode: z.string().nullable() });
export type Account = z.infer<typeof AccountSchema>;
export const AccountListSchema = z.array(AccountSchema);
export const CreateAccountRequestSchema = z.object({
  name: z.string().trim().min(1).max(100),
  internalCode: z.string().trim().max(50).nullish(),
});
export type CreateAccountRequest = z.infer<typeof CreateAccountRequestSchema>;
/**
 * An update must name something to change: an empty one would be an UPDATE without a SET,
 * which the database refuses, and a client that sends one has a bug it should hear about.
 */
function changesSomething(update: Record<string, unknown>): boolean {
  return Object.values(update).some((value) => value !== undefined);
}
const NOTHING_TO_CHANGE = 'Name at least one field to change';

export const UpdateAccountRequestSchema = CreateAccountRequestSchema.partial().refine(changesSomething, {
  message: NOTHING_TO_CHANGE,
});
export type UpdateAccountRequest = z.infer<typeof UpdateAccountRequestSchema>;

// BPTs (SPEC §3: name, account, channel, currency, shareable, tip enabled, tax percentage)
export const TaxPercentageSchema = z.union([z.number(), z.string()]);
export const BptSchema = z.object({
  id: z.string(),
  name: z.string(),
  accountId: z.string(),
  accountName: z.string(),
  channel: z.string(),
  currency: z.string(),
  shareable: z.boolean(),
  tipEnabled: z.boolean(),
  /** Percent with up to two decimals, e.g. 12 or 7.25. */
  taxPercentage: z.number(),
  /** The random token of the shareable terminal's link; null unless shareable. */
  shareToken: z.string().nullable(),
});
export type Bpt = z.infer<typeof BptSchema>;
export const BptListSchema = z.array(BptSchema);
export const CreateBptRequestSchema = z.object({
  name: z.string().trim().min(1).max(100),
  accountId: z.uuid(),
  channel: z.string().trim().min(1).max(50).default('store'),
  currency: CurrencyCodeSchema,
  shareable: z.boolean().default(false),
  tipEnabled: z.boolean().default(false),
  taxPercentage: TaxPercentageSchema.default(0),
});
export type CreateBptRequest = z.input<typeof CreateBptRequestSchema>;
export const UpdateBptRequestSchema = z
  .object({
    name: z.string().trim().min(1).max(100).optional(),
    accountId: z.uuid().optional(),
    channel: z.string().trim().min(1).max(50).optional(),
    currency: CurrencyCodeSchema.optional(),
    shareable: z.boolean().optional(),
    tipEnabled: z.boolean().optional(),
    taxPercentage: TaxPercentageSchema.optional(),
  })
  .refine(changesSomething, { message: NOTHING_TO_CHANGE });
export type UpdateBptRequest = z.infer<typeof UpdateBptRequestSchema>;

/** What a terminal opened by share token may know of its BPT. */
export const TerminalBptSchema = BptSchema.pick({
  id: true,
  name: true,
  currency: true,
  tipEnabled: true,
  taxPercentage: true,
});
export type TerminalBpt = z.infer<typeof TerminalBptSchema>;

// Invoices
export const InvoiceStatusSchema = z.enum(invoiceStatuses);
export type InvoiceStatus = z.infer<typeof InvoiceStatusSchema>;

export const SaleSourceSchema = z.enum(saleSources);
export type SaleSource = z.infer<typeof SaleSourceSchema>;
/** How a sale was paid: by a Lightning invoice, or on-chain. */
export const PaidViaSchema = z.enum(['lightning', 'onchain']);
export type PaidVia = z.infer<typeof PaidViaSchema>;

export const CreateInvoiceRequestSchema = z.object({
  amount: DecimalStringSchema,
  tip: DecimalStringSchema.optional(),
  description: z.string().trim().max(300).optional(),
});
export type CreateInvoiceRequest = z.infer<typeof CreateInvoiceRequestSchema>;

export const InvoiceSchema = z.object({
  id: z.string(),
  paymentRequest: z.string(),
  paymentHash: z.string(),
  amountMsat: MsatSchema,
  /** Bill + tip + tax, as a decimal string in `currency`. */
  fiatTotal: z.string(),
  billAmount: z.string(),
  tip: z.string(),
  tax: z.string(),
  currency: z.string(),
  /** Satoshis per unit of `currency` at the rate locked on this invoice, as a decimal string. */
  rate: z.string(),
  expiresAt: z.iso.datetime(),
  status: InvoiceStatusSchema,
});
export type Invoice = z.infer<typeof InvoiceSchema>;

export const InvoiceStatusEventSchema = z.object({ id: z.string(), status: InvoiceStatusSchema });
export type InvoiceStatusEvent = z.infer<typeof InvoiceStatusEventSchema>;

export const LnurlWithdrawRequestSchema = z.object({ lnurl: z.string().trim().min(1).max(2048) });
export type LnurlWithdrawRequest = z.infer<typeof LnurlWithdrawRequestSchema>;

export const DevnetPayRequestSchema = z.object({ paymentRequest: z.string().trim().min(1).max(4096) });
export type DevnetPayRequest = z.infer<typeof DevnetPayRequestSchema>;
export const DevnetPayResponseSchema = z.object({ paymentHash: z.string(), amountMsat: MsatSchema });
export type DevnetPayResponse = z.infer<typeof DevnetPayResponseSchema>;

// Ledger (SPEC §3 "Transaction"), as stored at settlement (DESIGN §4)
export const TransactionSchema = z.object({
  id: z.string(),
  createdAt: z.iso.datetime(),
  settledAt: z.iso.datetime(),
  accountId: z.string(),
  /** The payment hash, the identifier a payer's wallet shows. */
  transactionId: z.string(),
  bptId: z.string().nullable(),
  currencyPair: z.string(),
  currency: z.string(),
  totalMsatCharged: MsatSchema,
  billAmount: z.string(),
  tip: z.string(),
  tax: z.string(),
  msatIncome: MsatSchema,
  fiatIncome: z.string(),
  rate: z.string(),
  txFeeMsat: MsatSchema,
  conversionFeeMsat: MsatSchema,
  fiatPercentage: z.number(),
  disbursed: z.boolean(),
  /** Where the sale came from: a terminal, a payment link, a donation or a store's order. */
  source: SaleSourceSchema,
  /** Which one: the terminal's name, the link's description, the donation page's title, the store's order id. */
  sourceName: z.string(),
  /** What the sale says of itself: the terminal's note, the donor's comment; empty when nothing was written. */
  description: z.string(),
  /** How it was paid: by a Lightning invoice, or on-chain (its id is then `onchain:<txid>:<output>`). */
  paidVia: PaidViaSchema,
  /** What the sale's refunds gave back so far, in msat (decision 0057). */
  refundedMsat: MsatSchema,
  /** The same refunds in the sale's currency, as a decimal string. */
  refundedAmount: z.string(),
});
export type Transaction = z.infer<typeof TransactionSchema>;
export const TransactionListSchema = z.array(TransactionSchema);
/** A sale on a terminal's latest sales: a ledger sale, with what its refunds add up to so far (docs/refunds.md). */
export const TerminalSaleSchema = TransactionSchema;
export type TerminalSale = z.infer<typeof TerminalSaleSchema>;
export const TerminalSaleListSchema = z.array(TerminalSaleSchema);

/** What a terminal needs before charging: its BPT and the current rate for the BPT's currency. */
export const TerminalInfoSchema = z.object({
  bpt: TerminalBptSchema,
  /** Satoshis per unit of the BPT's currency right now, as a decimal string. */
  rate: z.string(),
  /** The same rate as the server prices with: minor units of the currency per bitcoin, as integer text. */
  rateMinorPerBtc: z.string().regex(/^\d+$/),
  /** The organization's logo and colour, shown on the terminal. */
  branding: PublicBrandingSchema,
  /** The organization's country (ISO code), whose way of writing numbers the terminal follows (es-GT: 2,321.94). */
  countryCode: z.string().nullable(),
  /** The organization's time zone, in which the terminal shows every time. */
  timeZone: z.string(),
  /** The organization's language, for a shared terminal whose browser asks for neither of ours. */
  language: LanguageSchema,
});
export type TerminalInfo = z.infer<typeof TerminalInfoSchema>;

export const LatestTransactionsQuerySchema = z.object({ limit: z.coerce.number().int().min(1).max(50).default(10) });

// The devnet Bolt Card service: one-time LNURL-withdraw links that pay like a card tap (LUD-03)
export const DevnetWithdrawLinkRequestSchema = z.object({
  /** The most the link pays, in msat; at least the 1 sat LNURL minimum. */
  maxMsat: MsatSchema.min(1000).optional(),
});
export type DevnetWithdrawLinkRequest = z.infer<typeof DevnetWithdrawLinkRequestSchema>;
export const DevnetWithdrawLinkSchema = z.object({ lnurl: z.string() });
export type DevnetWithdrawLink = z.infer<typeof DevnetWithdrawLinkSchema>;
/** The devnet wallet withdraws `amountMsat` from someone's LNURL-withdraw link (a refund link, say). */
export const DevnetWithdrawRequestSchema = z.object({
  lnurl: z.string().trim().min(1).max(2048),
  amountMsat: MsatSchema.min(1000),
});
export type DevnetWithdrawRequest = z.infer<typeof DevnetWithdrawRequestSchema>;
export const DevnetWithdrawResponseSchema = z.object({ paymentHash: z.string() });
export type DevnetWithdrawResponse = z.infer<typeof DevnetWithdrawResponseSchema>;

// LNURL answers (LUD-01, LUD-03): HTTP 200 with a status in the body
export const LnurlOkSchema = z.object({ status: z.literal('OK') });
export const LnurlErrorSchema = z.object({ status: z.literal('ERROR'), reason: z.string() });
export type LnurlOk = z.infer<typeof LnurlOkSchema>;
export type LnurlError = z.infer<typeof LnurlErrorSchema>;
export const LnurlWithdrawOfferSchema = z.object({
  tag: z.literal('withdrawRequest'),
  callback: z.string(),
  k1: z.string(),
  defaultDescription: z.string(),
  minWithdrawable: MsatSchema,
  maxWithdrawable: MsatSchema,
});
export type LnurlWithdrawOffer = z.infer<typeof LnurlWithdrawOfferSchema>;
/** Both optional so that a wallet missing one hears an LNURL ERROR, not our own error shape. */
export const LnurlWithdrawCallbackQuerySchema = z.object({ k1: z.string().optional(), pr: z.string().optional() });
