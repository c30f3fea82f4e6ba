import type { Db } from '../../db/database.ts';

/** The setting; `lock` holds the row so that the audit entry's before is what a change replaced. */
export async function findCheckoutProtection(
  db: Db,
  organizationId: string,
  options: { lock?: boolean } = {},
): Promise<boolean | undefined> {
  let query = db.selectFrom('organizations').select('checkout_protection').where('id', '=', organizationId);
  if (options.lock) query = query.forUpdate();
  return (await query.executeTakeFirst())?.checkout_protection;
}

export async function updateCheckoutProtection(db: Db, organizationId: string, enabled: boolean): Promise<void> {
  await db
    .updateTable('organizations')
    .set({ checkout_protection: enabled })
    .where('id', '=', organizationId)
    .execute();
}
