import type { Db } from '../../db/database.ts';

const listed = ['id', 'file_name', 'content_type', 'size', 'sha256', 'created_at'] as const;

export type KybDocumentRow = {
  id: string;
  file_name: string;
  content_type: string;
  size: number;
  sha256: string;
  created_at: Date;
};

/** The organization's documents, oldest first, without their bytes. */
export async function listKybDocumentRows(db: Db, organizationId: string): Promise<KybDocumentRow[]> {
  return db
    .selectFrom('kyb_documents')
    .select(listed)
    .where('organization_id', '=', organizationId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/**
 * Takes the organization's row for the rest of the transaction, so that two uploads at once
 * cannot both count 19 documents and leave 21.
 */
export async function lockOrganization(db: Db, organizationId: string): Promise<void> {
  await db.selectFrom('organizations').select('id').where('id', '=', organizationId).forUpdate().executeTakeFirst();
}

export async function countKybDocuments(db: Db, organizationId: string): Promise<number> {
  const row = await db
    .selectFrom('kyb_documents')
    .select((eb) => eb.fn.countAll<string>().as('count'))
    .where('organization_id', '=', organizationId)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

export async function insertKybDocument(
  db: Db,
  document: {
    organizationId: string;
    fileName: string;
    contentType: string;
    bytes: Buffer;
    sha256: string;
    uploadedBy: string;
  },
): Promise<KybDocumentRow> {
  return db
    .insertInto('kyb_documents')
    .values({
      organization_id: document.organizationId,
      file_name: document.fileName,
      content_type: document.contentType,
      bytes: document.bytes,
      size: document.bytes.length,
      sha256: document.sha256,
      uploaded_by: document.uploadedBy,
    })
    .returning(listed)
    .executeTakeFirstOrThrow();
}

/** One document of the organization, bytes included; another organization's is not found. */
export async function findKybDocument(db: Db, organizationId: string, id: string) {
  return db
    .selectFrom('kyb_documents')
    .select([...listed, 'bytes'])
    .where('organization_id', '=', organizationId)
    .where('id', '=', id)
    .executeTakeFirst();
}

export async function deleteKybDocumentRow(
  db: Db,
  organizationId: string,
  id: string,
): Promise<KybDocumentRow | undefined> {
  return db
    .deleteFrom('kyb_documents')
    .where('organization_id', '=', organizationId)
    .where('id', '=', id)
    .returning(listed)
    .executeTakeFirst();
}

/** Back office verifies the documents as they stand; any change to them withdraws that. */
export async function resetKybVerified(db: Db, organizationId: string): Promise<void> {
  await db.updateTable('organizations').set({ kyb_verified: false }).where('id', '=', organizationId).execute();
}
