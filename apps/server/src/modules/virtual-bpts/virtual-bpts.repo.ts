import type { Selectable } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { VirtualBptsTable } from '../../db/schema.ts';
import { type BptRow, findBpt } from '../bpts/bpts.repo.ts';

export type VirtualBptRow = Selectable<VirtualBptsTable>;

/** A live virtual BPT with the live terminal it sells for, whose account and currency take its sales. */
export type VirtualBptWithBpt = { virtualBpt: VirtualBptRow; bpt: BptRow };

async function withLinkedBpt(db: Db, row: VirtualBptRow | undefined): Promise<VirtualBptWithBpt | undefined> {
  if (!row) return undefined;
  const bpt = await findBpt(db, row.organization_id, row.bpt_id);
  return bpt ? { virtualBpt: row, bpt } : undefined;
}

/** The organization's virtual BPT `id`, unless it or its terminal was deleted. */
export async function findVirtualBpt(
  db: Db,
  organizationId: string,
  id: string,
): Promise<VirtualBptWithBpt | undefined> {
  const row = await db
    .selectFrom('virtual_bpts')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return withLinkedBpt(db, row);
}
