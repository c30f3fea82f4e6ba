import {
  AuditCsvQuerySchema,
  BackOfficeNotificationPageSchema,
  BackOfficeOrganizationPageSchema,
  BackOfficeOrganizationsQuerySchema,
  BlockedRequestSchema,
  NotificationQuerySchema,
  OrganizationAdminRecordSchema,
  VerificationRequestSchema,
} from '../back-office.ts';
import {
  CountryReportParamsSchema,
  CountryReportSchema,
  OrganizationTransactionsPageSchema,
  OrganizationTransactionsQuerySchema,
  PayTransactionsRequestSchema,
  PayTransactionsResponseSchema,
  UnpaidTransactionListSchema,
} from '../back-office-payments.ts';
import { backOfficeRoles } from '../roles.ts';
import { defineCalls } from './call.ts';
import { IdParamsSchema } from './common.ts';

const tags = ['back-office'];
const who = backOfficeRoles;

/**
 * Back office (SPEC §7): every organization, their verification and blocking, the notifications,
 * and the money: unpaid fiat, marking it paid, the ledger export, country reports. Its decisions
 * are audit-logged, and no developer token makes them.
 */
export const backOfficeCalls = defineCalls({
  'GET /api/back-office/organizations': {
    operationId: 'listBackOfficeOrganizations',
    tags,
    summary: 'Organizations by name: search (name or id prefix), country (-1 = all), page, limit',
    query: BackOfficeOrganizationsQuerySchema,
    answer: BackOfficeOrganizationPageSchema,
    who,
    refusals: [],
  },
  'GET /api/back-office/organization/:id/admin': {
    operationId: 'getOrganizationAdminRecord',
    tags,
    summary: 'The organization admin record',
    params: IdParamsSchema,
    answer: OrganizationAdminRecordSchema,
    who,
    refusals: ['NotFound'],
  },
  'PUT /api/back-office/organization/:id/verification': {
    operationId: 'setOrganizationVerification',
    tags,
    summary: 'Verifies or invalidates one field (bank, crypto, disbursementAddress, conversionAddress, kyb)',
    description: 'A field with nothing entered cannot be verified (`NothingToVerify`). Audit-logged.',
    params: IdParamsSchema,
    body: VerificationRequestSchema,
    answer: OrganizationAdminRecordSchema,
    who,
    refusals: ['NotFound', 'NothingToVerify'],
  },
  'PUT /api/back-office/organization/:id/blocked': {
    operationId: 'setOrganizationBlocked',
    tags,
    summary: 'Blocks (no invoice creation) or unblocks the organization',
    description: 'Audit-logged.',
    params: IdParamsSchema,
    body: BlockedRequestSchema,
    answer: OrganizationAdminRecordSchema,
    who,
    refusals: ['NotFound'],
  },
  'GET /api/back-office/notification': {
    operationId: 'listBackOfficeNotifications',
    tags,
    summary: 'Notifications, newest first',
    query: NotificationQuerySchema,
    answer: BackOfficeNotificationPageSchema,
    who,
    refusals: [],
  },
  'DELETE /api/back-office/notification/:id': {
    operationId: 'deleteBackOfficeNotification',
    tags,
    summary: 'Deletes a notification',
    params: IdParamsSchema,
    who,
    refusals: ['NotFound'],
  },
  'GET /api/back-office/organization/:id/unpaid-transactions': {
    operationId: 'listOrganizationUnpaidTransactions',
    tags,
    summary: "The organization's sales whose fiat part is not paid yet, oldest first (at most 10,000)",
    params: IdParamsSchema,
    answer: UnpaidTransactionListSchema,
    who,
    refusals: ['NotFound'],
  },
  'POST /api/back-office/pay-transactions': {
    operationId: 'payTransactions',
    tags,
    summary: "Marks the sales' fiat part paid, all of them or none",
    description:
      'An id that is unknown, already paid or has no fiat part refuses the whole request (`TransactionNotFound`); so does a sale of an organization whose bank account changed and is held (`PayoutDestinationHeld`), or that has no bank account unless `withoutBankAccount` names it (`BankAccountMissing`). Audit-logged per organization.',
    body: PayTransactionsRequestSchema,
    answer: PayTransactionsResponseSchema,
    who,
    refusals: ['TransactionNotFound', 'PayoutDestinationHeld', 'BankAccountMissing'],
  },
  'GET /api/back-office/organization/:id/transactions': {
    operationId: 'listOrganizationTransactions',
    tags,
    summary: "A page of the organization's whole ledger, oldest first",
    description: 'The `X-Total-Count` header holds how many sales the ledger has in all.',
    params: IdParamsSchema,
    query: OrganizationTransactionsQuerySchema,
    answer: OrganizationTransactionsPageSchema,
    who,
    refusals: ['NotFound'],
  },
  'GET /api/back-office/country/report': {
    operationId: 'getAllCountriesReport',
    tags,
    summary: 'The report of all countries',
    answer: CountryReportSchema,
    who,
    refusals: [],
  },
  'GET /api/back-office/country/:id/report': {
    operationId: 'getCountryReport',
    tags,
    summary: "A country's report (-1: all countries)",
    params: CountryReportParamsSchema,
    answer: CountryReportSchema,
    who,
    refusals: ['NotFound'],
  },
  'GET /api/back-office/country/report/csv': {
    operationId: 'exportAllCountriesReportCsv',
    tags,
    summary: 'The report of all countries as CSV',
    file: { mediaType: 'text/csv', disposition: 'attachment' },
    who,
    refusals: [],
  },
  'GET /api/back-office/country/:id/report/csv': {
    operationId: 'exportCountryReportCsv',
    tags,
    summary: "A country's report as CSV (-1: all countries)",
    params: CountryReportParamsSchema,
    file: { mediaType: 'text/csv', disposition: 'attachment' },
    who,
    refusals: ['NotFound'],
  },
  'GET /api/back-office/audit/csv': {
    operationId: 'exportAuditLogCsv',
    tags,
    summary: 'The audit log of [start, end) (unix seconds, at most a year) as CSV, streamed',
    query: AuditCsvQuerySchema,
    file: { mediaType: 'text/csv', disposition: 'attachment' },
    who,
    refusals: [],
  },
});
