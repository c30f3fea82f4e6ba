import { AppError, type CreateManagerRequest, type Manager, type UpdateManagerRequest } from '@rayo/shared';
import type { Db } from '../../db/database.ts';
import { organizationOf } from '../accounts/accounts.service.ts';
import { revokeUserRefreshTokens } from '../auth/auth.repo.ts';
import { hashPassword } from '../auth/passwords.ts';
import type { AccessClaims } from '../auth/tokens.ts';
import { findOrganizationById } from '../organizations/organizations.repo.ts';
import { linkManagerToAccounts } from '../users/users.repo.ts';
import { createUser } from '../users/users.service.ts';
import {
  countOrganizationAccounts,
  deleteManager as deleteManagerRow,
  findManager,
  listManagers as listManagerRows,
  unlinkManagerFromAllAccounts,
  updateManagerUser,
} from './managers.repo.ts';

/** The distinct ids, refused unless every one is an account of the organization. */
async function ownAccounts(db: Db, organizationId: string, accountIds: string[]): Promise<string[]> {
  const distinct = [...new Set(accountIds)];
  if ((await countOrganizationAccounts(db, organizationId, distinct)) !== distinct.length) {
    throw new AppError('InvalidInput', 'Every account must belong to your organization');
  }
  return distinct;
}

export async function listManagers(db: Db, caller: AccessClaims): Promise<Manager[]> {
  return listManagerRows(db, organizationOf(caller));
}

export async function createManager(db: Db, caller: AccessClaims, request: CreateManagerRequest): Promise<Manager> {
  const organizationId = organizationOf(caller);
  return db.transaction().execute(async (trx) => {
    const accountIds = await ownAccounts(trx, organizationId, request.accountIds);
    const organization = await findOrganizationById(trx, organizationId);
    // createUser hashes the password and answers UserAlreadyExist for an email taken in any case.
    const user = await createUser(trx, {
      organizationId,
      email: request.email,
      name: request.name,
      password: request.password,
      role: 'manager',
      language: organization?.language ?? 'en',
    });
    await linkManagerToAccounts(trx, user.id, accountIds);
    const created = await findManager(trx, organizationId, user.id);
    if (!created) throw new AppError('Default', 'The new manager could not be read back');
    return created;
  });
}

export async function updateManager(
  db: Db,
  caller: AccessClaims,
  id: string,
  request: UpdateManagerRequest,
): Promise<Manager> {
  const organizationId = organizationOf(caller);
  return db.transaction().execute(async (trx) => {
    if (!(await findManager(trx, organizationId, id))) throw new AppError('NotFound', 'Manager not found');
    if (request.accountIds) {
      const accountIds = await ownAccounts(trx, organizationId, request.accountIds);
      await unlinkManagerFromAllAccounts(trx, id);
      await linkManagerToAccounts(trx, id, accountIds);
    }
    await updateManagerUser(trx, id, {
      name: request.name,
      passwordHash: request.password === undefined ? undefined : await hashPassword(request.password),
    });
    // A new password ends the sessions signed in with the old one at their next refresh.
    if (request.password !== undefined) await revokeUserRefreshTokens(trx, id, new Date());
    const updated = await findManager(trx, organizationId, id);
    if (!updated) throw new AppError('NotFound', 'Manager not found');
    return updated;
  });
}

/**
 * Removes the manager with their links and refresh tokens. An access token already issued lives
 * until it expires; the next refresh finds no token and signs them out.
 */
export async function deleteManager(db: Db, caller: AccessClaims, id: string): Promise<void> {
  if (!(await deleteManagerRow(db, organizationOf(caller), id))) throw new AppError('NotFound', 'Manager not found');
}
