import { sql } from 'kysely';

/**
 * A filter for rows whose account is linked to the manager: the one way every list narrows a
 * manager's view (SPEC §6), shared by the repositories of each thing an account owns.
 * `accountColumn` names the row's account, e.g. `bpts.account_id`.
 */
export function onAccountLinkedTo(
  managerUserId: string,
  accountColumn: 'bpts.account_id' | 'invoices.account_id' | 'transactions.account_id',
) {
  return sql<boolean>`exists (select 1 from manager_accounts where manager_accounts.account_id = ${sql.ref(accountColumn)} and manager_accounts.user_id = ${managerUserId})`;
}
