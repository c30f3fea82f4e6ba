import { z } from 'zod';
import { LanguageSchema, RoleSchema } from './auth.ts';
import { ALL_COUNTRIES_ID, DEFAULT_PAGE_SIZE } from './constants.ts';
import { BlockReasonSchema } from './dashboard.ts';
import { KybDocumentListSchema } from './kyb.ts';
import { BankingInfoListSchema } from './payout-destinations.ts';
import { VERIFICATIONS, VerificationsSchema } from './payout-split.ts';

// Back office (SPEC §2 "Back office", §4 "Back-office verification", §7 `/back-office/*`): staff
// who belong to no organization, see every organization, verify what merchants entered, block
// organizations, read notifications and export the audit log.

const PageSchema = z.coerce.number().int().min(1).max(1_000_000).default(1);

/** SPEC §3: the country filter's `-1` is 'All Countries'. */
export const BackOfficeOrganizationsQuerySchema = z.object({
  search: z.string().trim().max(100).optional(),
  country: z.coerce.number().int().min(ALL_COUNTRIES_ID).default(ALL_COUNTRIES_ID),
  page: PageSchema,
  limit: z.coerce.number().int().min(1).max(100).default(DEFAULT_PAGE_SIZE),
});
export type BackOfficeOrganizationsQuery = z.infer<typeof BackOfficeOrganizationsQuerySchema>;

export const BackOfficeOrganizationRowSchema = z.object({
  id: z.string(),
  name: z.string(),
  countryId: z.number().int().nullable(),
  currency: z.string(),
  createdAt: z.iso.datetime(),
  blocked: z.boolean(),
  /** Verifications whose field the merchant entered and back office has not reviewed yet. */
  verificationsToReview: z.number().int().min(0).max(VERIFICATIONS.length),
  /** Verifications with nothing entered to review. */
  verificationsNotEntered: z.number().int().min(0).max(VERIFICATIONS.length),
  transactionsCount: z.number().int(),
  /** Sales whose fiat part is not paid out yet. */
  unpaidFiatCount: z.number().int(),
  /** The fiat part still to pay out, in `currency`, as a decimal string ("1234.50"). */
  pendingFiat: z.string(),
});
export type BackOfficeOrganizationRow = z.infer<typeof BackOfficeOrganizationRowSchema>;

export const BackOfficeOrganizationPageSchema = z.object({
  organizations: z.array(BackOfficeOrganizationRowSchema),
  total: z.number().int(),
});
export type BackOfficeOrganizationPage = z.infer<typeof BackOfficeOrganizationPageSchema>;

export const KybDocumentParamsSchema = z.object({ id: z.uuid(), documentId: z.uuid() });

export const OrganizationAdminUserSchema = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  role: RoleSchema,
});

/** SPEC §7 GET /back-office/organization/{id}/admin: everything back office verifies, in one record. */
export const OrganizationAdminRecordSchema = z.object({
  organization: z.object({
    id: z.string(),
    name: z.string(),
    countryId: z.number().int().nullable(),
    currency: z.string(),
    language: LanguageSchema,
    timeZone: z.string(),
    createdAt: z.iso.datetime(),
  }),
  users: z.array(OrganizationAdminUserSchema),
  bankingInfo: BankingInfoListSchema,
  onchainAddress: z.string().nullable(),
  lightningAddress: z.string().nullable(),
  payoutSplit: z.object({
    fiatPercent: z.number(),
    onchainPercent: z.number(),
    lightningPercent: z.number(),
  }),
  kybDocuments: KybDocumentListSchema,
  verifications: VerificationsSchema,
  blocked: z.boolean(),
  /** Null when not blocked. */
  blockedReason: BlockReasonSchema.nullable(),
});
export type OrganizationAdminRecord = z.infer<typeof OrganizationAdminRecordSchema>;

export const VerificationRequestSchema = z.object({
  field: z.enum(VERIFICATIONS),
  verified: z.boolean(),
});
export type VerificationRequest = z.infer<typeof VerificationRequestSchema>;

/** Blocking without a reason blocks for `other`. */
export const BlockedRequestSchema = z.object({ blocked: z.boolean(), reason: BlockReasonSchema.optional() });
export type BlockedRequest = z.infer<typeof BlockedRequestSchema>;

/** What raises a back-office notification; the server's `NotificationKind` is this list. */
export const NOTIFICATION_KINDS = [
  'settings.banking_info_changed',
  'settings.onchain_address_changed',
  'settings.lightning_address_changed',
  'settings.payout_destination_change_cancelled',
  'settings.payout_split_changed',
  'settings.kyb_document_uploaded',
  'settings.kyb_document_deleted',
  'organization.created',
  'payout.failed',
  'payout.waiting_funds',
  'close.report_failed',
] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

export const NotificationQuerySchema = z.object({
  page: PageSchema,
  limit: z.coerce.number().int().min(1).max(100).default(DEFAULT_PAGE_SIZE),
});
export type NotificationQuery = z.infer<typeof NotificationQuerySchema>;

export const BackOfficeNotificationSchema = z.object({
  id: z.string(),
  organizationId: z.string(),
  organizationName: z.string(),
  /** One of NOTIFICATION_KINDS; a string so that a kind added later still lists. */
  kind: z.string(),
  payload: z.record(z.string(), z.unknown()),
  createdAt: z.iso.datetime(),
});
export type BackOfficeNotification = z.infer<typeof BackOfficeNotificationSchema>;

export const BackOfficeNotificationPageSchema = z.object({
  notifications: z.array(BackOfficeNotificationSchema),
  total: z.number().int(),
});
export type BackOfficeNotificationPage = z.infer<typeof BackOfficeNotificationPageSchema>;

/** The longest period one audit export covers (a year and a day, for leap years). */
export const AUDIT_EXPORT_MAX_SECONDS = 366 * 24 * 60 * 60;

const AuditBoundSchema = z.coerce.number().int().min(0).max(253_402_300_800);

/** Unix seconds; `start` inclusive, `end` exclusive. */
export const AuditCsvQuerySchema = z
  .object({ start: AuditBoundSchema, end: AuditBoundSchema })
  .refine((q) => q.end > q.start, { message: 'end must be after start', path: ['end'] })
  .refine((q) => q.end - q.start <= AUDIT_EXPORT_MAX_SECONDS, {
    message: 'The period must be at most a year',
    path: ['end'],
  });
export type AuditCsvQuery = z.infer<typeof AuditCsvQuerySchema>;
