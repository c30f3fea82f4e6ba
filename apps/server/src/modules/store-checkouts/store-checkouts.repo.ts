import type { Db } from '../../db/database.ts';

/**
 * The organization a live virtual BPT sells for, found by its id alone: the public store button
 * names only the virtual BPT.
 */
export async function findVirtualBptOrganization(db: Db, virtualBptId: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('virtual_bpts')
    .select('organization_id')
    .where('id', '=', virtualBptId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return row?.organization_id;
}
