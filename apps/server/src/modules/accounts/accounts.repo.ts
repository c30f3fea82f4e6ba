import type { AccountSummary } from '@rayo/shared';
import type { Db } from '../../db/database.ts';

export async function insertAccount(
  db: Db,
  account: { organizationId: string; name: string; internalCode: string | null },
): Promise<AccountSummary> {
  return db
    .insertInto('accounts')
    .values({ organization_id: account.organizationId, name: account.name, internal_code: account.internalCode })
    .returning(['id', 'name'])
    .executeTakeFirstOrThrow();
}

export async function listOrganizationAccounts(db: Db, organizationId: string): Promise<AccountSummary[]> {
  return db
    .selectFrom('accounts')
    .select(['id', 'name'])
    .where('organization_id', '=', organizationId)
    .orderBy('name')
    .orderBy('id')
    .execute();
}

export async function listManagerAccounts(db: Db, organizationId: string, userId: string): Promise<AccountSummary[]> {
  return db
    .selectFrom('accounts')
    .innerJoin('manager_accounts', 'manager_accounts.account_id', 'accounts.id')
    .select(['accounts.id', 'accounts.name'])
    .where('accounts.organization_id', '=', organizationId)
    .where('manager_accounts.user_id', '=', userId)
    .orderBy('accounts.name')
    .orderBy('accounts.id')
    .execute();
}
