import type { BlockReason } from '@rayo/shared';
import { sql } from 'kysely';
import type { Db, ReadDb } from '../../db/database.ts';

// Back office belongs to no organization: these queries read and change any organization, and
// each names the one it acts on by id. Who may call them is the routes' permission table.

export type OrganizationListFilter = {
  /** Part of the name, or the start of the id. */
  search: string | undefined;
  /** Null for every country. */
  countryId: number | null;
  offset: number;
  limit: number;
};

/** `%` and `_` in a search are the characters themselves, not LIKE's wildcards. */
function likeLiteral(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

function filteredOrganizations(db: Db, filter: OrganizationListFilter) {
  let query = db.selectFrom('organizations');
  if (filter.countryId !== null) query = query.where('country_id', '=', filter.countryId);
  if (filter.search) {
    const pattern = likeLiteral(filter.search);
    query = query.where((eb) =>
      eb.or([eb('name', 'ilike', `%${pattern}%`), eb(sql<string>`id::text`, 'like', `${pattern.toLowerCase()}%`)]),
    );
  }
  return query;
}

/** One page of organizations by name, and how many match. */
export async function listOrganizationRows(db: Db, filter: OrganizationListFilter) {
  const [rows, total] = await Promise.all([
    filteredOrganizations(db, filter)
      .select([
        'id',
        'name',
        'country_id',
        'currency',
        'created_at',
        'blocked',
        'bank_verified',
        'crypto_verified',
        'disbursement_address_verified',
        'conversion_address_verified',
        'kyb_verified',
      ])
      .orderBy('name')
      .orderBy('id')
      .limit(filter.limit)
      .offset(filter.offset)
      .execute(),
    filteredOrganizations(db, filter)
      .select((eb) => eb.fn.countAll<string>().as('count'))
      .executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(total.count) };
}

/**
 * Sales per organization, read from the daily rollup (one row per account and day) rather than
 * from the ledger, which holds millions of rows.
 */
export async function countSalesByOrganization(db: Db, organizationIds: string[]): Promise<Map<string, bigint>> {
  if (organizationIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('transaction_daily')
    .select(['organization_id', (eb) => eb.fn.sum<string>('count').as('count')])
    .where('organization_id', 'in', organizationIds)
    .groupBy('organization_id')
    .execute();
  return new Map(rows.map((row) => [row.organization_id, BigInt(row.count)]));
}

/**
 * The fiat part not paid out yet, per organization and sale currency, from the disbursement
 * totals that settlement and marking paid keep (migration 0022).
 */
export async function listPendingFiat(db: Db, organizationIds: string[]) {
  if (organizationIds.length === 0) return [];
  return db
    .selectFrom('disbursement_totals')
    .select(['organization_id', 'currency', 'pending_count', 'pending_fiat_minor'])
    .where('organization_id', 'in', organizationIds)
    .execute();
}

/** `lock` holds the row for the rest of the transaction, so that changes of it follow one another. */
export async function findOrganizationRecord(db: Db, id: string, options: { lock?: boolean } = {}) {
  let query = db.selectFrom('organizations').selectAll().where('id', '=', id);
  if (options.lock) query = query.forUpdate();
  return query.executeTakeFirst();
}

/** The organization's admins: who back office deals with. Never their password hashes. */
export async function listOrganizationAdmins(db: Db, organizationId: string) {
  return db
    .selectFrom('users')
    .select(['id', 'name', 'email', 'role'])
    .where('organization_id', '=', organizationId)
    .where('role', 'in', ['super_admin', 'admin'])
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

export const VERIFICATION_COLUMNS = {
  bank: 'bank_verified',
  crypto: 'crypto_verified',
  disbursementAddress: 'disbursement_address_verified',
  conversionAddress: 'conversion_address_verified',
  kyb: 'kyb_verified',
} as const;

export type VerificationColumn = (typeof VERIFICATION_COLUMNS)[keyof typeof VERIFICATION_COLUMNS];

export async function setOrganizationFlag(
  db: Db,
  id: string,
  column: VerificationColumn,
  value: boolean,
): Promise<void> {
  await db
    .updateTable('organizations')
    .set({ [column]: value })
    .where('id', '=', id)
    .execute();
}

/** Blocks the organization for `reason`, or unblocks it with null. */
export async function setOrganizationBlock(db: Db, id: string, reason: BlockReason | null): Promise<void> {
  await db
    .updateTable('organizations')
    .set({ blocked: reason !== null, blocked_reason: reason })
    .where('id', '=', id)
    .execute();
}

export async function listNotificationRows(db: Db, page: { offset: number; limit: number }) {
  const [rows, total] = await Promise.all([
    db
      .selectFrom('notifications as n')
      .innerJoin('organizations as o', 'o.id', 'n.organization_id')
      .select(['n.id', 'n.organization_id', 'o.name as organization_name', 'n.kind', 'n.payload', 'n.created_at'])
      .orderBy('n.created_at', 'desc')
      .orderBy('n.id', 'desc')
      .limit(page.limit)
      .offset(page.offset)
      .execute(),
    db
      .selectFrom('notifications')
      .select((eb) => eb.fn.countAll<string>().as('count'))
      .executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(total.count) };
}

export async function deleteNotificationRow(db: Db, id: string) {
  return db
    .deleteFrom('notifications')
    .where('id', '=', id)
    .returning(['id', 'organization_id', 'kind', 'payload', 'created_at'])
    .executeTakeFirst();
}

/**
 * The audit entries of [from, to), oldest first, `limit` after the entry `afterId`: the export
 * reads the period a page at a time, so that neither memory nor one long query grows with its
 * length. The cursor is the entry itself, since a JavaScript date would drop the microseconds.
 */
export async function listAuditRowsAfter(
  db: ReadDb,
  range: { from: Date; to: Date },
  afterId: string | null,
  limit: number,
) {
  let query = db
    .selectFrom('audit_log as a')
    .leftJoin('organizations as o', 'o.id', 'a.organization_id')
    .select([
      'a.id',
      'a.occurred_at',
      'a.actor_email',
      'a.actor_system',
      'a.action',
      'a.organization_id',
      'o.name as organization_name',
      'a.target',
      'a.before',
      'a.after',
      'a.ip',
    ])
    .where('a.occurred_at', '>=', range.from)
    .where('a.occurred_at', '<', range.to);
  if (afterId) {
    query = query.where(
      sql<boolean>`(a.occurred_at, a.id) > (select c.occurred_at, c.id from audit_log c where c.id = ${afterId})`,
    );
  }
  return query.orderBy('a.occurred_at').orderBy('a.id').limit(limit).execute();
}
