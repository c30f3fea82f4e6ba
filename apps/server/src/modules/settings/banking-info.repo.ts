import type { BankingInfoMetadata } from '@rayo/shared';
import type { Db } from '../../db/database.ts';

/** What the banking settings read of an organization: its country, currency and bank verification. */
export type BankingContext = { countryCode: string | null; currency: string; bankVerified: boolean };

/**
 * `lock` takes the organization's row for the rest of the transaction, so that two changes of
 * its bank account, and back office's verification, follow one another.
 */
export async function findBankingContext(
  db: Db,
  organizationId: string,
  options: { lock?: boolean } = {},
): Promise<BankingContext | undefined> {
  let query = db
    .selectFrom('organizations')
    .leftJoin('countries', 'countries.id', 'organizations.country_id')
    .select(['countries.code', 'organizations.currency', 'organizations.bank_verified'])
    .where('organizations.id', '=', organizationId);
  if (options.lock) query = query.forUpdate('organizations');
  const row = await query.executeTakeFirst();
  return row && { countryCode: row.code, currency: row.currency, bankVerified: row.bank_verified };
}

export type BankingInfoRow = { id: string; metadata: BankingInfoMetadata; updated_at: Date };

/** SPEC §3: the first entry is the one used, so the oldest comes first. */
export async function listBankingInfoRows(db: Db, organizationId: string): Promise<BankingInfoRow[]> {
  return db
    .selectFrom('banking_info')
    .select(['id', 'metadata', 'updated_at'])
    .where('organization_id', '=', organizationId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

export async function findBankingInfoRow(
  db: Db,
  organizationId: string,
  id: string,
): Promise<BankingInfoRow | undefined> {
  return db
    .selectFrom('banking_info')
    .select(['id', 'metadata', 'updated_at'])
    .where('organization_id', '=', organizationId)
    .where('id', '=', id)
    .executeTakeFirst();
}

export async function insertBankingInfoRow(
  db: Db,
  organizationId: string,
  metadata: BankingInfoMetadata,
): Promise<BankingInfoRow> {
  return db
    .insertInto('banking_info')
    .values({ organization_id: organizationId, metadata: JSON.stringify(metadata) })
    .returning(['id', 'metadata', 'updated_at'])
    .executeTakeFirstOrThrow();
}

export async function updateBankingInfoRow(
  db: Db,
  organizationId: string,
  id: string,
  metadata: BankingInfoMetadata,
): Promise<BankingInfoRow> {
  return db
    .updateTable('banking_info')
    .set({ metadata: JSON.stringify(metadata), updated_at: new Date() })
    .where('organization_id', '=', organizationId)
    .where('id', '=', id)
    .returning(['id', 'metadata', 'updated_at'])
    .executeTakeFirstOrThrow();
}

/** A changed bank account is not the one back office verified. */
export async function markBankUnverified(db: Db, organizationId: string): Promise<void> {
  await db.updateTable('organizations').set({ bank_verified: false }).where('id', '=', organizationId).execute();
}
