import { type AccountSummary, AppError } from '@rayo/shared';
import type { Db } from '../../db/database.ts';
import type { AccessClaims } from '../auth/tokens.ts';
import { listManagerAccounts, listOrganizationAccounts } from './accounts.repo.ts';

/** The accounts the caller may see: all of the organization's, or a manager's linked ones. */
export async function listVisibleAccounts(db: Db, caller: AccessClaims): Promise<AccountSummary[]> {
  if (!caller.organizationId) throw new AppError('Forbidden', 'This user belongs to no organization');
  return caller.role === 'manager'
    ? listManagerAccounts(db, caller.organizationId, caller.userId)
    : listOrganizationAccounts(db, caller.organizationId);
}
