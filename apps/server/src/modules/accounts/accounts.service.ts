import {
  type Account,
  type AccountSummary,
  AppError,
  type CreateAccountRequest,
  type UpdateAccountRequest,
} from '@rayo/shared';
import type { Db } from '../../db/database.ts';
import type { AccessClaims } from '../auth/tokens.ts';
import {
  countAccounts,
  deleteAccount as deleteAccountRow,
  findAccount,
  insertAccount,
  isAccountInUse,
  listAccountSummaries,
  listAccounts,
  updateAccount as updateAccountRow,
} from './accounts.repo.ts';

export function organizationOf(caller: AccessClaims): string {
  if (!caller.organizationId) {
    // Only an admin who signed up and has not onboarded yet lacks one; the web app sends them there.
    throw new AppError('OnboardingRequired', 'Set up your organization first');
  }
  return caller.organizationId;
}

/** Managers see only the accounts linked to them (SPEC §6). */
function managerFilter(caller: AccessClaims): string | undefined {
  return caller.role === 'manager' ? caller.userId : undefined;
}

export async function listVisibleAccounts(db: Db, caller: AccessClaims): Promise<AccountSummary[]> {
  return listAccountSummaries(db, organizationOf(caller), managerFilter(caller));
}

export async function listAccountDetails(db: Db, caller: AccessClaims): Promise<Account[]> {
  return listAccounts(db, organizationOf(caller), managerFilter(caller));
}

export async function createAccount(db: Db, caller: AccessClaims, request: CreateAccountRequest): Promise<Account> {
  return insertAccount(db, {
    organizationId: organizationOf(caller),
    name: request.name,
    internalCode: request.internalCode || null,
  });
}

export async function updateAccount(
  db: Db,
  caller: AccessClaims,
  id: string,
  request: UpdateAccountRequest,
): Promise<Account> {
  const updated = await updateAccountRow(db, organizationOf(caller), id, {
    name: request.name,
    internalCode: request.internalCode === undefined ? undefined : request.internalCode || null,
  });
  if (!updated) throw new AppError('NotFound', 'Account not found');
  return updated;
}

export async function deleteAccount(db: Db, caller: AccessClaims, id: string): Promise<void> {
  const organizationId = organizationOf(caller);
  // Sales and terminals keep their account; such an account can be renamed but not removed. Another
  // organization's account is never "in use" here, so it answers 404 like any id that is not ours.
  if (await isAccountInUse(db, organizationId, id)) {
    throw new AppError('AccountInUse', 'This account has terminals or sales and cannot be deleted');
  }
  if (!(await deleteAccountRow(db, organizationId, id))) throw new AppError('NotFound', 'Account not found');
}

/** The organization's account of this id; undefined when it has none of that id. */
export async function findOrganizationAccount(
  db: Db,
  organizationId: string,
  id: string,
): Promise<Account | undefined> {
  return findAccount(db, organizationId, id);
}

export async function countOrganizationAccounts(db: Db, organizationId: string): Promise<number> {
  return countAccounts(db, organizationId);
}

/** Every account of the organization, or only those linked to `managerUserId` when given. */
export async function listOrganizationAccounts(
  db: Db,
  organizationId: string,
  managerUserId?: string,
): Promise<Account[]> {
  return listAccounts(db, organizationId, managerUserId);
}
