import type { Selectable } from 'kysely';
import type { Db } from '../../db/database.ts';
import { onAccountLinkedTo } from '../../db/manager-scope.ts';
import type { VirtualBptsTable } from '../../db/schema.ts';

export type VirtualBptRow = Selectable<VirtualBptsTable>;

/** The organization's virtual BPT `id`, unless it was deleted. */
export async function findVirtualBpt(db: Db, organizationId: string, id: string): Promise<VirtualBptRow | undefined> {
  return db
    .selectFrom('virtual_bpts')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
}

/** A virtual BPT as the lists show it, with its terminal and that terminal's account. */
export type VirtualBptListRow = VirtualBptRow & {
  bpt_name: string;
  account_id: string;
  account_name: string;
  currency: string;
};

/**
 * The organization's live virtual BPTs whose terminal is live, or only those selling for accounts
 * linked to `managerUserId`.
 */
export async function listVirtualBpts(
  db: Db,
  organizationId: string,
  managerUserId?: string,
): Promise<VirtualBptListRow[]> {
  let query = db
    .selectFrom('virtual_bpts')
    .innerJoin('bpts', 'bpts.id', 'virtual_bpts.bpt_id')
    .innerJoin('accounts', 'accounts.id', 'bpts.account_id')
    .selectAll('virtual_bpts')
    .select(['bpts.name as bpt_name', 'bpts.account_id', 'accounts.name as account_name', 'bpts.currency'])
    .where('virtual_bpts.organization_id', '=', organizationId)
    .where('virtual_bpts.deleted_at', 'is', null)
    .where('bpts.deleted_at', 'is', null);
  if (managerUserId) {
    query = query.where(onAccountLinkedTo(managerUserId, 'bpts.account_id'));
  }
  return query.orderBy('virtual_bpts.name').orderBy('virtual_bpts.id').execute();
}

export async function insertVirtualBpt(
  db: Db,
  organizationId: string,
  fields: { name: string; bptId: string },
): Promise<string> {
  const row = await db
    .insertInto('virtual_bpts')
    .values({ organization_id: organizationId, name: fields.name, bpt_id: fields.bptId })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Virtual BPTs leave the lists but keep their sales; their links stop taking payments. */
export async function softDeleteVirtualBpt(db: Db, organizationId: string, id: string, now: Date): Promise<boolean> {
  const result = await db
    .updateTable('virtual_bpts')
    .set({ deleted_at: now })
    .where('organization_id', '=', organizationId)
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}
