import type { Selectable } from 'kysely';
import type { Db } from '../../db/database.ts';
import { onAccountLinkedTo } from '../../db/manager-scope.ts';
import type { BptsTable } from '../../db/schema.ts';
import { type SellerRow, toSellerRate } from '../invoices/seller.ts';

export type BptRow = Selectable<BptsTable> & { account_name: string };

function selectBpts(db: Db) {
  return db
    .selectFrom('bpts')
    .innerJoin('accounts', 'accounts.id', 'bpts.account_id')
    .selectAll('bpts')
    .select('accounts.name as account_name')
    .where('bpts.deleted_at', 'is', null);
}

/** The organization's live terminals, or only those on accounts linked to `managerUserId`. */
export async function listBpts(db: Db, organizationId: string, managerUserId?: string): Promise<BptRow[]> {
  let query = selectBpts(db).where('bpts.organization_id', '=', organizationId);
  if (managerUserId) {
    query = query.where(onAccountLinkedTo(managerUserId, 'bpts.account_id'));
  }
  return query.orderBy('bpts.name').orderBy('bpts.id').execute();
}

export async function findBpt(db: Db, organizationId: string, id: string): Promise<BptRow | undefined> {
  return selectBpts(db).where('bpts.organization_id', '=', organizationId).where('bpts.id', '=', id).executeTakeFirst();
}

/**
 * A terminal with what charging at it reads of its organization and the cached price of its
 * currency, in one statement: charging is the hottest path Rayo has (docs/benchmarks.md).
 */
export async function findBptForSale(
  db: Db,
  organizationId: string,
  id: string,
  managerUserId?: string,
): Promise<{ bpt: BptRow; seller: SellerRow } | undefined> {
  let query = selectBpts(db)
    .innerJoin('organizations', 'organizations.id', 'bpts.organization_id')
    .leftJoin('rates', 'rates.currency', 'bpts.currency')
    .select([
      'organizations.name as organization_name',
      'organizations.blocked_reason as organization_blocked_reason',
      'rates.rate_minor_per_btc',
      'rates.fetched_at as rate_fetched_at',
    ])
    .where('bpts.organization_id', '=', organizationId)
    .where('bpts.id', '=', id);
  if (managerUserId) query = query.where(onAccountLinkedTo(managerUserId, 'bpts.account_id'));
  const row = await query.executeTakeFirst();
  if (!row) return undefined;
  const { organization_name, organization_blocked_reason, rate_minor_per_btc, rate_fetched_at, ...bpt } = row;
  return {
    bpt,
    seller: {
      name: organization_name,
      blockedReason: organization_blocked_reason,
      rate: toSellerRate(rate_minor_per_btc, rate_fetched_at),
    },
  };
}

export async function findBptByShareToken(db: Db, shareToken: string): Promise<BptRow | undefined> {
  return selectBpts(db)
    .where('bpts.share_token', '=', shareToken)
    .where('bpts.shareable', '=', true)
    .executeTakeFirst();
}

export type BptFields = {
  account_id: string;
  name: string;
  channel: string;
  currency: string;
  shareable: boolean;
  share_token: string | null;
  tip_enabled: boolean;
  tax_bps: number;
};

export async function insertBpt(db: Db, organizationId: string, fields: BptFields): Promise<string> {
  const row = await db
    .insertInto('bpts')
    .values({ organization_id: organizationId, ...fields })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function updateBpt(
  db: Db,
  organizationId: string,
  id: string,
  changes: Partial<BptFields>,
): Promise<boolean> {
  const result = await db
    .updateTable('bpts')
    .set(changes)
    .where('organization_id', '=', organizationId)
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Terminals leave the lists but keep their sales; their share link stops working at once. */
export async function softDeleteBpt(db: Db, organizationId: string, id: string, now: Date): Promise<boolean> {
  const result = await db
    .updateTable('bpts')
    .set({ deleted_at: now, share_token: null, shareable: false })
    .where('organization_id', '=', organizationId)
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}
