import type { Language, Manager } from '@rayo/shared';
import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';

/** The organization's managers with the ids of their linked accounts, or only the one with `id`. */
function selectManagers(db: Db, organizationId: string) {
  return db
    .selectFrom('users')
    .leftJoin('manager_accounts', 'manager_accounts.user_id', 'users.id')
    .select([
      'users.id',
      'users.name',
      'users.email',
      'users.language',
      sql<string[]>`coalesce(
        array_agg(manager_accounts.account_id::text order by manager_accounts.account_id)
          filter (where manager_accounts.account_id is not null),
        '{}'
      )`.as('accountIds'),
    ])
    .where('users.organization_id', '=', organizationId)
    .where('users.role', '=', 'manager')
    .groupBy('users.id');
}

export async function listManagers(db: Db, organizationId: string): Promise<Manager[]> {
  return selectManagers(db, organizationId).orderBy('users.name').orderBy('users.id').execute();
}

export async function findManager(db: Db, organizationId: string, id: string): Promise<Manager | undefined> {
  return selectManagers(db, organizationId).where('users.id', '=', id).executeTakeFirst();
}

/** How many of `accountIds` (distinct) are accounts of the organization. */
export async function countOrganizationAccounts(db: Db, organizationId: string, accountIds: string[]): Promise<number> {
  if (accountIds.length === 0) return 0;
  const row = await db
    .selectFrom('accounts')
    .select((eb) => eb.fn.countAll<string>().as('count'))
    .where('organization_id', '=', organizationId)
    .where('id', 'in', accountIds)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

export async function unlinkManagerFromAllAccounts(db: Db, userId: string): Promise<void> {
  await db.deleteFrom('manager_accounts').where('user_id', '=', userId).execute();
}

export async function updateManagerUser(
  db: Db,
  id: string,
  changes: { name?: string; passwordHash?: string; language?: Language },
): Promise<void> {
  if (changes.name === undefined && changes.passwordHash === undefined && changes.language === undefined) return;
  await db
    .updateTable('users')
    .set({
      ...(changes.name !== undefined && { name: changes.name }),
      ...(changes.language !== undefined && { language: changes.language }),
      ...(changes.passwordHash !== undefined && { password_hash: changes.passwordHash }),
    })
    .where('id', '=', id)
    .where('role', '=', 'manager')
    .execute();
}

/** Removes the manager; their account links and refresh tokens go with them (foreign keys cascade). */
export async function deleteManager(db: Db, organizationId: string, id: string): Promise<boolean> {
  const result = await db
    .deleteFrom('users')
    .where('organization_id', '=', organizationId)
    .where('role', '=', 'manager')
    .where('id', '=', id)
    .executeTakeFirst();
  return result.numDeletedRows > 0n;
}
