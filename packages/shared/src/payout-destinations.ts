import { z } from 'zod';

// Where the merchant is paid (SPEC §1 "Payouts go to a bank account, a Bitcoin on-chain address
// or a Lightning address"; SPEC §2 Settings; SPEC §7 `/settings/banking-info*`). Each change
// needs the `mfa-code` header when the caller has MFA on, and undoes back office's verification
// of that field.

/** SPEC §3 "Bank account: bank, account name, account number, routing number, account type, currency". */
export const BANKING_FIELDS = [
  'bank',
  'accountName',
  'accountNumber',
  'routingNumber',
  'accountType',
  'currency',
] as const;
export type BankingField = (typeof BANKING_FIELDS)[number];

export const ACCOUNT_TYPES = ['checking', 'savings'] as const;

/**
 * How a country writes a bank account: US account and ABA routing numbers, Mexico's CLABE,
 * an IBAN, or the generic form any other country gets.
 */
export const BANKING_FORMATS = ['aba', 'clabe', 'iban', 'generic'] as const;
export type BankingFormat = (typeof BANKING_FORMATS)[number];

export const BankingFieldTemplateSchema = z.object({
  name: z.enum(BANKING_FIELDS),
  input: z.enum(['text', 'select']),
  /** The key of the field's label under `settings.bankAccount.fields` in the web app's texts. */
  label: z.string(),
  required: z.boolean(),
  maxLength: z.number().int(),
  /** A JavaScript regular expression the value matches once spaces and dashes are removed. */
  pattern: z.string().optional(),
  /** Check digits verified by the server beyond the pattern. */
  check: z.enum(['aba', 'clabe', 'iban']).optional(),
  example: z.string().optional(),
  options: z.array(z.string()).optional(),
});
export type BankingFieldTemplate = z.infer<typeof BankingFieldTemplateSchema>;

/** SPEC §7 GET /settings/banking-info-template: the fields of the organization's country. */
export const BankingInfoTemplateSchema = z.object({
  countryCode: z.string().nullable(),
  format: z.enum(BANKING_FORMATS),
  fields: z.array(BankingFieldTemplateSchema),
});
export type BankingInfoTemplate = z.infer<typeof BankingInfoTemplateSchema>;

const FieldValueSchema = z.string().max(200);

/** The values, by field; which are required and how they look is the template's to say. */
export const BankingInfoMetadataSchema = z.strictObject({
  bank: FieldValueSchema.optional(),
  accountName: FieldValueSchema.optional(),
  accountNumber: FieldValueSchema.optional(),
  routingNumber: FieldValueSchema.optional(),
  accountType: FieldValueSchema.optional(),
  currency: FieldValueSchema.optional(),
});
export type BankingInfoMetadata = z.infer<typeof BankingInfoMetadataSchema>;

export const BankingInfoRequestSchema = z.object({ bankingInfoMetadata: BankingInfoMetadataSchema });
export type BankingInfoRequest = z.infer<typeof BankingInfoRequestSchema>;

/** SPEC §3 "Banking info: a list whose first entry is used. Each entry has id and bankingInfoMetadata". */
export const BankingInfoSchema = z.object({
  id: z.string(),
  bankingInfoMetadata: BankingInfoMetadataSchema,
  updatedAt: z.string(),
});
export type BankingInfo = z.infer<typeof BankingInfoSchema>;
export const BankingInfoListSchema = z.array(BankingInfoSchema);

export const BankingInfoIdParamsSchema = z.object({ bankingInfoId: z.uuid() });

export const BITCOIN_NETWORKS = ['mainnet', 'testnet', 'signet', 'regtest'] as const;

export const PayoutAddressesSchema = z.object({
  onchainAddress: z.string().nullable(),
  lightningAddress: z.string().nullable(),
  /** The network on-chain addresses must be for: the Lightning node's (devnet is regtest). */
  network: z.enum(BITCOIN_NETWORKS),
  /** Back office's verifications: the bank, the on-chain address (crypto) and the Lightning address. */
  bankVerified: z.boolean(),
  onchainVerified: z.boolean(),
  lightningVerified: z.boolean(),
});
export type PayoutAddresses = z.infer<typeof PayoutAddressesSchema>;

export const OnchainAddressRequestSchema = z.object({ onchainAddress: z.string().trim().min(1).max(100) });
export type OnchainAddressRequest = z.infer<typeof OnchainAddressRequestSchema>;

/** LUD-16 `user@domain`; the server resolves it before keeping it. */
export const LightningAddressRequestSchema = z.object({ lightningAddress: z.string().trim().min(1).max(320) });
export type LightningAddressRequest = z.infer<typeof LightningAddressRequestSchema>;
