import { createHash } from 'node:crypto';
import { AppError, KYB_MAX_FILES, KYB_TYPES, type KybDocument, type KybType } from '@rayo/shared';
import type { Db } from '../../db/database.ts';
import { sniffFileType } from '../../domain/file-type.ts';
import type { RequestContext } from '../../http/request-context.ts';
import { cleanFileName, type Upload } from '../../http/upload.ts';
import { organizationOf } from '../accounts/accounts.service.ts';
import { audit } from '../audit/audit.service.ts';
import type { AccessClaims } from '../auth/tokens.ts';
import { notifyBackOffice } from '../notifications/notifications.service.ts';
import {
  countKybDocuments,
  deleteKybDocumentRow,
  findKybDocument,
  insertKybDocument,
  type KybDocumentRow,
  listKybDocumentRows,
  lockOrganization,
  resetKybVerified,
} from './kyb.repo.ts';

export function toKybDocument(row: KybDocumentRow): KybDocument {
  return {
    id: row.id,
    fileName: row.file_name,
    contentType: row.content_type as KybType,
    size: row.size,
    sha256: row.sha256,
    createdAt: row.created_at.toISOString(),
  };
}

/** What the audit log and back office's notice say of a document: never its content. */
function describe(row: KybDocumentRow) {
  return {
    documentId: row.id,
    fileName: row.file_name,
    size: row.size,
    contentType: row.content_type,
    sha256: row.sha256,
  };
}

function isKybType(type: string | undefined): type is KybType {
  return (KYB_TYPES as readonly string[]).includes(type ?? '');
}

export async function listKybDocuments(db: Db, caller: AccessClaims): Promise<KybDocument[]> {
  return (await listKybDocumentRows(db, organizationOf(caller))).map(toKybDocument);
}

/**
 * Stores one KYB document. Its type is read from its bytes, whatever its name or the client
 * says. The organization's KYB goes back to unverified, since back office has not seen this
 * one; the document, the reset, the audit entry and back office's notice commit together.
 */
export async function uploadKybDocument(ctx: RequestContext, db: Db, upload: Upload): Promise<KybDocument> {
  const organizationId = organizationOf(ctx);
  const contentType = sniffFileType(upload.bytes);
  if (!isKybType(contentType)) {
    throw new AppError('InvalidFileType', 'A KYB document must be a PDF, PNG or JPEG file');
  }
  const sha256 = createHash('sha256').update(upload.bytes).digest('hex');
  return db.transaction().execute(async (trx) => {
    await lockOrganization(trx, organizationId);
    if ((await countKybDocuments(trx, organizationId)) >= KYB_MAX_FILES) {
      throw new AppError(
        'TooManyFiles',
        `An organization keeps at most ${KYB_MAX_FILES} KYB documents; delete one first`,
      );
    }
    const row = await insertKybDocument(trx, {
      organizationId,
      fileName: cleanFileName(upload.fileName, 'document'),
      contentType,
      bytes: upload.bytes,
      sha256,
      uploadedBy: ctx.userId,
    });
    await resetKybVerified(trx, organizationId);
    await audit(ctx, trx, 'settings.kyb_document_uploaded', {
      organizationId,
      target: `kyb_document:${row.id}`,
      after: describe(row),
    });
    await notifyBackOffice(trx, { organizationId, kind: 'settings.kyb_document_uploaded', payload: describe(row) });
    return toKybDocument(row);
  });
}

/** A document of the caller's organization, to download; any other is not found. */
export async function downloadKybDocument(db: Db, caller: AccessClaims, id: string) {
  const row = await findKybDocument(db, organizationOf(caller), id);
  if (!row) throw new AppError('NotFound', 'Document not found');
  return { ...toKybDocument(row), bytes: row.bytes };
}

/**
 * Deletes a document of the caller's organization. Back office verified the documents as they
 * were, so KYB goes back to unverified and back office is told, as for an upload.
 */
export async function deleteKybDocument(ctx: RequestContext, db: Db, id: string): Promise<void> {
  const organizationId = organizationOf(ctx);
  await db.transaction().execute(async (trx) => {
    const row = await deleteKybDocumentRow(trx, organizationId, id);
    if (!row) throw new AppError('NotFound', 'Document not found');
    await resetKybVerified(trx, organizationId);
    await audit(ctx, trx, 'settings.kyb_document_deleted', {
      organizationId,
      target: `kyb_document:${row.id}`,
      before: describe(row),
    });
    await notifyBackOffice(trx, { organizationId, kind: 'settings.kyb_document_deleted', payload: describe(row) });
  });
}

/** The organization's KYB documents, without their bytes, for back office. */
export async function listOrganizationKybDocuments(db: Db, organizationId: string): Promise<KybDocumentRow[]> {
  return listKybDocumentRows(db, organizationId);
}

/** One KYB document of the organization with its bytes; `db` may be the caller's transaction. */
export async function findOrganizationKybDocument(db: Db, organizationId: string, id: string) {
  return findKybDocument(db, organizationId, id);
}
