import type { Account, AccountSummary } from '@rayo/shared';
import type { Db } from '../../db/database.ts';

const accountColumns = ['accounts.id', 'accounts.name', 'accounts.internal_code as internalCode'] as const;

export async function insertAccount(
  db: Db,
  account: { organizationId: string; name: string; internalCode: string | null },
): Promise<Account> {
  return db
    .insertInto('accounts')
    .values({ organization_id: account.organizationId, name: account.name, internal_code: account.internalCode })
    .returning(['id', 'name', 'internal_code as internalCode'])
    .executeTakeFirstOrThrow();
}

/** The organization's accounts, or only those linked to `managerUserId` when given. */
export async function listAccounts(db: Db, organizationId: string, managerUserId?: string): Promise<Account[]> {
  let query = db.selectFrom('accounts').select(accountColumns).where('accounts.organization_id', '=', organizationId);
  if (managerUserId) {
    query = query
      .innerJoin('manager_accounts', 'manager_accounts.account_id', 'accounts.id')
      .where('manager_accounts.user_id', '=', managerUserId);
  }
  return query.orderBy('accounts.name').orderBy('accounts.id').execute();
}

export async function listAccountSummaries(
  db: Db,
  organizationId: string,
  managerUserId?: string,
): Promise<AccountSummary[]> {
  return (await listAccounts(db, organizationId, managerUserId)).map(({ id, name }) => ({ id, name }));
}

export async function findAccount(db: Db, organizationId: string, id: string): Promise<Account | undefined> {
  return db
    .selectFrom('accounts')
    .select(accountColumns)
    .where('accounts.organization_id', '=', organizationId)
    .where('accounts.id', '=', id)
    .executeTakeFirst();
}

export async function updateAccount(
  db: Db,
  organizationId: string,
  id: string,
  changes: { name?: string; internalCode?: string | null },
): Promise<Account | undefined> {
  return db
    .updateTable('accounts')
    .set({
      ...(changes.name !== undefined && { name: changes.name }),
      ...(changes.internalCode !== undefined && { internal_code: changes.internalCode }),
    })
    .where('organization_id', '=', organizationId)
    .where('id', '=', id)
    .returning(['id', 'name', 'internal_code as internalCode'])
    .executeTakeFirst();
}

export async function deleteAccount(db: Db, organizationId: string, id: string): Promise<boolean> {
  const result = await db
    .deleteFrom('accounts')
    .where('organization_id', '=', organizationId)
    .where('id', '=', id)
    .executeTakeFirst();
  return result.numDeletedRows > 0n;
}

export async function countAccounts(db: Db, organizationId: string): Promise<number> {
  const row = await db
    .selectFrom('accounts')
    .select((eb) => eb.fn.countAll<string>().as('count'))
    .where('organization_id', '=', organizationId)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/**
 * Whether a terminal (live or deleted) or a sale still refers to the organization's account;
 * false for another organization's, so its use is not revealed.
 */
export async function isAccountInUse(db: Db, organizationId: string, id: string): Promise<boolean> {
  const row = await db
    .selectFrom('accounts')
    .select((eb) => [
      eb.exists(eb.selectFrom('bpts').select('bpts.id').where('bpts.account_id', '=', id)).as('hasBpts'),
      eb.exists(eb.selectFrom('invoices').select('invoices.id').where('invoices.account_id', '=', id)).as('hasSales'),
    ])
    .where('organization_id', '=', organizationId)
    .where('id', '=', id)
    .executeTakeFirst();
  return Boolean(row?.hasBpts || row?.hasSales);
}
