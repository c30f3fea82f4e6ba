import { Readable } from 'node:stream';
import {
  ALL_COUNTRIES_ID,
  AppError,
  type AuditCsvQuery,
  type BackOfficeNotificationPage,
  type BackOfficeOrganizationPage,
  type BackOfficeOrganizationsQuery,
  type BlockedRequest,
  formatMinor,
  isEntered,
  type NotificationQuery,
  type OrganizationAdminRecord,
  VERIFICATIONS,
  type VerificationEntries,
  type VerificationRequest,
  type Verifications,
  verificationState,
} from '@rayo/shared';
import type { Db, ReadDb } from '../../db/database.ts';
import type { Organization } from '../../db/schema.ts';
import { csvLine, csvTextField } from '../../domain/transactions-csv.ts';
import type { RequestContext } from '../../http/request-context.ts';
import { audit } from '../audit/audit.service.ts';
import { listOrganizationBankingInfo, toBankingInfo } from '../settings/banking-info.service.ts';
import { findOrganizationKybDocument, listOrganizationKybDocuments, toKybDocument } from '../settings/kyb.service.ts';
import { readVerificationEntries } from '../settings/payout-split.service.ts';
import {
  countSalesByOrganization,
  deleteNotificationRow,
  findOrganizationRecord,
  listAuditRowsAfter,
  listNotificationRows,
  listOrganizationAdmins,
  listOrganizationRows,
  listPendingFiat,
  setOrganizationBlock,
  setOrganizationFlag,
  VERIFICATION_COLUMNS,
  type VerificationColumn,
} from './back-office.repo.ts';

const NOTHING_ENTERED: VerificationEntries = {
  bankAccount: false,
  onchainAddress: false,
  lightningAddress: false,
  kybDocument: false,
};

/** How many verifications wait for review, and how many have nothing entered to review. */
function verificationCounts(verifications: Verifications, entries: VerificationEntries = NOTHING_ENTERED) {
  const states = VERIFICATIONS.map((name) => verificationState(name, verifications, entries));
  return {
    verificationsToReview: states.filter((state) => state === 'awaitingReview').length,
    verificationsNotEntered: states.filter((state) => state === 'notEntered').length,
  };
}

function verificationsOf(organization: Pick<Organization, VerificationColumn>): Verifications {
  return {
    bank: organization.bank_verified,
    crypto: organization.crypto_verified,
    disbursementAddress: organization.disbursement_address_verified,
    conversionAddress: organization.conversion_address_verified,
    kyb: organization.kyb_verified,
  };
}

export async function listOrganizations(
  db: Db,
  query: BackOfficeOrganizationsQuery,
): Promise<BackOfficeOrganizationPage> {
  const { rows, total } = await listOrganizationRows(db, {
    search: query.search || undefined,
    countryId: query.country === ALL_COUNTRIES_ID ? null : query.country,
    offset: (query.page - 1) * query.limit,
    limit: query.limit,
  });
  const ids = rows.map((row) => row.id);
  const [sales, pending, entries] = await Promise.all([
    countSalesByOrganization(db, ids),
    listPendingFiat(db, ids),
    readVerificationEntries(db, ids),
  ]);
  return {
    total,
    organizations: rows.map((row) => {
      const own = pending.filter((p) => p.organization_id === row.id);
      const unpaidFiatCount = own.reduce((sum, p) => sum + BigInt(p.pending_count), 0n);
      // Fiat is paid in the organization's currency; a sale priced in another one is counted
      // among the unpaid but its amount is not added to a different currency's.
      const pendingFiatMinor = own
        .filter((p) => p.currency === row.currency)
        .reduce((sum, p) => sum + BigInt(p.pending_fiat_minor), 0n);
      return {
        id: row.id,
        name: row.name,
        countryId: row.country_id,
        currency: row.currency,
        createdAt: row.created_at.toISOString(),
        blocked: row.blocked,
        ...verificationCounts(verificationsOf(row), entries.get(row.id)),
        transactionsCount: Number(sales.get(row.id) ?? 0n),
        unpaidFiatCount: Number(unpaidFiatCount),
        pendingFiat: formatMinor(pendingFiatMinor, row.currency),
      };
    }),
  };
}

async function requireOrganization(db: Db, id: string, options: { lock?: boolean } = {}): Promise<Organization> {
  const organization = await findOrganizationRecord(db, id, options);
  if (!organization) throw new AppError('NotFound', 'Organization not found');
  return organization;
}

async function adminRecordOf(db: Db, organization: Organization): Promise<OrganizationAdminRecord> {
  const [users, banking, documents] = await Promise.all([
    listOrganizationAdmins(db, organization.id),
    listOrganizationBankingInfo(db, organization.id),
    listOrganizationKybDocuments(db, organization.id),
  ]);
  return {
    organization: {
      id: organization.id,
      name: organization.name,
      countryId: organization.country_id,
      currency: organization.currency,
      language: organization.language,
      timeZone: organization.time_zone,
      createdAt: organization.created_at.toISOString(),
    },
    users,
    bankingInfo: banking.map(toBankingInfo),
    onchainAddress: organization.onchain_address,
    lightningAddress: organization.lightning_address,
    payoutSplit: {
      fiatPercent: organization.payout_fiat_bps / 100,
      onchainPercent: organization.payout_onchain_bps / 100,
      lightningPercent: organization.payout_lightning_bps / 100,
    },
    kybDocuments: documents.map(toKybDocument),
    verifications: verificationsOf(organization),
    blocked: organization.blocked,
    blockedReason: organization.blocked_reason,
  };
}

export async function getOrganizationAdminRecord(db: Db, id: string): Promise<OrganizationAdminRecord> {
  return adminRecordOf(db, await requireOrganization(db, id));
}

/**
 * Verifies or withdraws one of SPEC §4's five fields. The organization's row is held meanwhile,
 * so that a merchant's change of the same field (which withdraws its verification) lands either
 * before the check or after the verification, never between.
 */
export async function setVerification(
  ctx: RequestContext,
  db: Db,
  id: string,
  request: VerificationRequest,
): Promise<OrganizationAdminRecord> {
  return db.transaction().execute(async (trx) => {
    const organization = await requireOrganization(trx, id, { lock: true });
    const entries = (await readVerificationEntries(trx, [id])).get(id) ?? NOTHING_ENTERED;
    if (request.verified && !isEntered(request.field, entries)) {
      throw new AppError('NothingToVerify', `The organization has not entered its ${request.field} information yet`);
    }
    const column = VERIFICATION_COLUMNS[request.field];
    const before = organization[column];
    if (before !== request.verified) {
      await setOrganizationFlag(trx, id, column, request.verified);
      await audit(ctx, trx, 'back_office.verification_changed', {
        organizationId: id,
        target: `organization:${id}`,
        before: { field: request.field, verified: before },
        after: { field: request.field, verified: request.verified },
      });
    }
    return adminRecordOf(trx, { ...organization, [column]: request.verified });
  });
}

/**
 * SPEC §4: a blocked organization creates no invoices (issueInvoice refuses them). The reason,
 * `other` unless given, is what its members are told; blocking again changes it.
 */
export async function setBlocked(
  ctx: RequestContext,
  db: Db,
  id: string,
  request: BlockedRequest,
): Promise<OrganizationAdminRecord> {
  const reason = request.blocked ? (request.reason ?? 'other') : null;
  return db.transaction().execute(async (trx) => {
    const organization = await requireOrganization(trx, id, { lock: true });
    if (organization.blocked_reason !== reason) {
      await setOrganizationBlock(trx, id, reason);
      await audit(
        ctx,
        trx,
        request.blocked ? 'back_office.organization_blocked' : 'back_office.organization_unblocked',
        {
          organizationId: id,
          target: `organization:${id}`,
          before: { blocked: organization.blocked, reason: organization.blocked_reason },
          after: { blocked: request.blocked, reason },
        },
      );
    }
    return adminRecordOf(trx, { ...organization, blocked: request.blocked, blocked_reason: reason });
  });
}

/** Back office reads merchants' legal papers; each download is on the audit log. */
export async function downloadOrganizationKybDocument(ctx: RequestContext, db: Db, id: string, documentId: string) {
  return db.transaction().execute(async (trx) => {
    const row = await findOrganizationKybDocument(trx, id, documentId);
    if (!row) throw new AppError('NotFound', 'Document not found');
    await audit(ctx, trx, 'back_office.kyb_document_downloaded', {
      organizationId: id,
      target: `kyb_document:${documentId}`,
      after: { fileName: row.file_name, sha256: row.sha256 },
    });
    return { ...toKybDocument(row), bytes: row.bytes };
  });
}

export async function listNotifications(db: Db, query: NotificationQuery): Promise<BackOfficeNotificationPage> {
  const { rows, total } = await listNotificationRows(db, {
    offset: (query.page - 1) * query.limit,
    limit: query.limit,
  });
  return {
    total,
    notifications: rows.map((row) => ({
      id: row.id,
      organizationId: row.organization_id,
      organizationName: row.organization_name,
      kind: row.kind,
      payload: (row.payload ?? {}) as Record<string, unknown>,
      createdAt: row.created_at.toISOString(),
    })),
  };
}

export async function deleteNotification(ctx: RequestContext, db: Db, id: string): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const row = await deleteNotificationRow(trx, id);
    if (!row) throw new AppError('NotFound', 'Notification not found');
    await audit(ctx, trx, 'back_office.notification_deleted', {
      organizationId: row.organization_id,
      target: `notification:${row.id}`,
      before: { kind: row.kind, payload: row.payload, createdAt: row.created_at.toISOString() },
    });
  });
}

/** The log spans organizations, so its times are in UTC, which the header says. */
export const AUDIT_CSV_HEADER = ['Time (UTC)', 'Actor', 'Action', 'Organization', 'Target', 'Before', 'After', 'IP'];

const AUDIT_PAGE_ROWS = 1000;

function jsonText(value: unknown): string {
  return value === null || value === undefined ? '' : JSON.stringify(value);
}

/**
 * The audit log of a period as CSV (RFC 4180, header row), read a page at a time as the client
 * takes it. Every field but the time is text someone could have typed (a name, an email, a
 * file name), so each goes through the spreadsheet-formula guard. The export itself is logged,
 * on the primary; the log is read from `readDb`, so with a replica that entry and others of the
 * last moments may be missing from the file.
 */
export async function exportAuditCsv(
  ctx: RequestContext,
  db: Db,
  readDb: ReadDb,
  query: AuditCsvQuery,
): Promise<{ filename: string; stream: Readable }> {
  const range = { from: new Date(query.start * 1000), to: new Date(query.end * 1000) };
  await audit(ctx, db, 'back_office.audit_exported', {
    target: 'audit_log',
    after: { start: range.from.toISOString(), end: range.to.toISOString() },
  });
  async function* lines() {
    yield csvLine(AUDIT_CSV_HEADER);
    let afterId: string | null = null;
    for (;;) {
      const rows = await listAuditRowsAfter(readDb, range, afterId, AUDIT_PAGE_ROWS);
      if (rows.length === 0) return;
      yield rows
        .map((row) =>
          [
            row.occurred_at.toISOString(),
            // A person by e-mail, or the periodic pass that acted (`system:<job key>`).
            csvTextField(row.actor_email ?? row.actor_system ?? ''),
            csvTextField(row.action),
            csvTextField(row.organization_name ?? row.organization_id ?? ''),
            csvTextField(row.target ?? ''),
            csvTextField(jsonText(row.before)),
            csvTextField(jsonText(row.after)),
            csvTextField(row.ip ?? ''),
          ].join(','),
        )
        .join('\r\n')
        .concat('\r\n');
      if (rows.length < AUDIT_PAGE_ROWS) return;
      afterId = (rows.at(-1) as (typeof rows)[number]).id;
    }
  }
  // Named after the UTC days it covers, both included: `to` is exclusive, so its last second.
  const day = (epochMs: number) => new Date(epochMs).toISOString().slice(0, 10);
  const filename = `audit_${day(range.from.getTime())}_${day(range.to.getTime() - 1000)}.csv`;
  return { filename, stream: Readable.from(lines()) };
}
