import { z } from 'zod';
import { LanguageSchema } from './auth.ts';
import { MsatSchema } from './payments.ts';

// LNURL-pay donations (SPEC §3 'LNURL-Pay: amount per pay (optional)', SPEC §5 'The LNURL amount
// may be blank, which accepts any amount'), the organization's Lightning address (LUD-16) and the
// donation history.

/** What a donor may write with a donation (LUD-12) unless the link says otherwise. */
export const DEFAULT_DONATION_COMMENT_LENGTH = 140;
/** LUD-12 asks to keep the callback URL near 2,000 characters; a comment stays well inside it. */
export const MAX_DONATION_COMMENT_LENGTH = 500;
/** A fixed donation amount is at most one bitcoin, the largest invoice Rayo issues. */
export const MAX_DONATION_SATS = 100_000_000;

/**
 * The name part of the organization's Lightning address: LUD-16's `a-z0-9-_.`, starting and
 * ending with a letter or digit so that `name@host` reads as one word.
 */
export const LIGHTNING_ADDRESS_NAME_PATTERN = /^[a-z0-9](?:[a-z0-9\-_.]{0,62}[a-z0-9])?$/;

export const DonationLinkSchema = z.object({
  id: z.string(),
  virtualBptId: z.string(),
  virtualBptName: z.string(),
  /** The linked BPT's currency, in which each donation's worth is recorded. */
  currency: z.string(),
  title: z.string(),
  description: z.string(),
  /** A fixed amount per donation; null accepts any amount. */
  amountSats: z.number().int().nullable(),
  /** The longest comment a donor may send (LUD-12); 0 takes none. */
  commentAllowed: z.number().int(),
  /** The LNURL-pay link (LUD-01 bech32, upper case), for QR codes any wallet reads. */
  lnurl: z.string(),
  createdAt: z.iso.datetime(),
});
export type DonationLink = z.infer<typeof DonationLinkSchema>;
export const DonationLinkListSchema = z.array(DonationLinkSchema);

export const CreateDonationLinkRequestSchema = z.object({
  virtualBptId: z.uuid(),
  title: z.string().trim().min(1).max(100),
  description: z.string().trim().max(300).default(''),
  amountSats: z.number().int().min(1).max(MAX_DONATION_SATS).nullish(),
  commentAllowed: z.number().int().min(0).max(MAX_DONATION_COMMENT_LENGTH).default(DEFAULT_DONATION_COMMENT_LENGTH),
});
export type CreateDonationLinkRequest = z.input<typeof CreateDonationLinkRequestSchema>;

export const DonationSchema = z.object({
  id: z.string(),
  donationLinkId: z.string(),
  title: z.string(),
  receivedAt: z.iso.datetime(),
  amountMsat: MsatSchema,
  /** The donation's worth in `currency` at the rate locked on its invoice, as a decimal string. */
  fiatAmount: z.string(),
  currency: z.string(),
  comment: z.string().nullable(),
});
export type Donation = z.infer<typeof DonationSchema>;

export const DonationHistoryQuerySchema = z.object({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(20),
});
export type DonationHistoryQuery = z.input<typeof DonationHistoryQuerySchema>;

export const DonationHistorySchema = z.object({
  items: z.array(DonationSchema),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
});
export type DonationHistory = z.infer<typeof DonationHistorySchema>;

export const DonationAddressSchema = z.object({
  username: z.string(),
  donationLinkId: z.string(),
  /** `username@host`, the host being the one Rayo is reached at. */
  address: z.string(),
});
export type DonationAddress = z.infer<typeof DonationAddressSchema>;
export const DonationAddressAnswerSchema = z.object({ address: DonationAddressSchema.nullable() });
export type DonationAddressAnswer = z.infer<typeof DonationAddressAnswerSchema>;

export const SetDonationAddressRequestSchema = z.object({
  username: z.string().trim().toLowerCase().min(1).max(64),
  donationLinkId: z.uuid(),
});
export type SetDonationAddressRequest = z.input<typeof SetDonationAddressRequestSchema>;

/** What the public donation page shows: the merchant's name and look, and the link's terms. */
export const PublicDonationLinkSchema = z.object({
  id: z.string(),
  title: z.string(),
  description: z.string(),
  amountSats: z.number().int().nullable(),
  minSats: z.number().int(),
  maxSats: z.number().int(),
  commentAllowed: z.number().int(),
  lnurl: z.string(),
  merchant: z.object({ name: z.string(), logoUrl: z.string().nullable(), accentColor: z.string().nullable() }),
  /** The merchant's language, for a donor whose browser asks for neither of ours. */
  language: LanguageSchema,
});
export type PublicDonationLink = z.infer<typeof PublicDonationLinkSchema>;

export const CreateDonationInvoiceRequestSchema = z.object({
  amountSats: z.number().int().min(1).max(MAX_DONATION_SATS),
  comment: z.string().max(MAX_DONATION_COMMENT_LENGTH).optional(),
});
export type CreateDonationInvoiceRequest = z.infer<typeof CreateDonationInvoiceRequestSchema>;

/** The invoice of one donation, as the donation page shows and follows it. */
export const DonationInvoiceSchema = z.object({
  id: z.string(),
  paymentRequest: z.string(),
  amountMsat: MsatSchema,
  expiresAt: z.iso.datetime(),
});
export type DonationInvoice = z.infer<typeof DonationInvoiceSchema>;

// LNURL-pay answers (LUD-06, LUD-09, LUD-12): HTTP 200, the LNURL error envelope on failure
export const LnurlPayRequestSchema = z.object({
  tag: z.literal('payRequest'),
  callback: z.string(),
  minSendable: MsatSchema,
  maxSendable: MsatSchema,
  /** A JSON array of `[type, content]` pairs, as a string: the invoice commits to its SHA-256. */
  metadata: z.string(),
  commentAllowed: z.number().int(),
});
export type LnurlPayRequest = z.infer<typeof LnurlPayRequestSchema>;

/** Both optional strings, so that a wallet's bad amount hears an LNURL ERROR, not our error shape. */
export const LnurlPayCallbackQuerySchema = z.object({
  amount: z.string().max(32).optional(),
  comment: z.string().max(4096).optional(),
});
export type LnurlPayCallbackQuery = z.infer<typeof LnurlPayCallbackQuerySchema>;

export const LnurlPayInvoiceSchema = z.object({
  pr: z.string(),
  routes: z.array(z.never()),
  successAction: z.object({ tag: z.literal('message'), message: z.string() }),
});
export type LnurlPayInvoice = z.infer<typeof LnurlPayInvoiceSchema>;
