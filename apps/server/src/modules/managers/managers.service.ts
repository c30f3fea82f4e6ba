import { AppError, type CreateManagerRequest, type Manager, type UpdateManagerRequest } from '@rayo/shared';
import type { Db } from '../../db/database.ts';
import type { RequestContext } from '../../http/request-context.ts';
import { organizationOf } from '../accounts/accounts.service.ts';
import { type AuditAction, audit } from '../audit/audit.service.ts';
import { endSessionsOfUser } from '../auth/auth.service.ts';
import { hashPassword } from '../auth/passwords.ts';
import type { AccessClaims } from '../auth/tokens.ts';
import { findOrganizationById } from '../organizations/organizations.service.ts';
import { createUser, linkManagerToAccounts } from '../users/users.service.ts';
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

/** What the audit log keeps of a manager: who they are and what they see, never their password. */
function audited(manager: Manager): Record<string, unknown> {
  return { name: manager.name, email: manager.email, language: manager.language, accountIds: manager.accountIds };
}

/** One audit row, written in the transaction of the change it records. */
async function auditManagerChange(
  ctx: RequestContext,
  trx: Db,
  change: { action: AuditAction; managerId: string; before?: Record<string, unknown>; after?: Record<string, unknown> },
): Promise<void> {
  await audit(ctx, trx, change.action, {
    organizationId: ctx.organizationId,
    target: `user:${change.managerId}`,
    before: change.before ?? null,
    after: change.after ?? null,
  });
}

export async function listManagers(db: Db, caller: AccessClaims): Promise<Manager[]> {
  return listManagerRows(db, organizationOf(caller));
}

export async function createManager(ctx: RequestContext, db: Db, request: CreateManagerRequest): Promise<Manager> {
  const organizationId = organizationOf(ctx);
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
      language: request.language ?? organization?.language ?? 'en',
    });
    await linkManagerToAccounts(trx, user.id, accountIds);
    const created = await findManager(trx, organizationId, user.id);
    if (!created) throw new AppError('Default', 'The new manager could not be read back');
    await auditManagerChange(ctx, trx, {
      action: 'manager.created',
      managerId: user.id,
      after: audited(created),
    });
    return created;
  });
}

export async function updateManager(
  ctx: RequestContext,
  db: Db,
  id: string,
  request: UpdateManagerRequest,
): Promise<Manager> {
  const organizationId = organizationOf(ctx);
  return db.transaction().execute(async (trx) => {
    const before = await findManager(trx, organizationId, id);
    if (!before) throw new AppError('NotFound', 'Manager not found');
    if (request.accountIds) {
      const accountIds = await ownAccounts(trx, organizationId, request.accountIds);
      await unlinkManagerFromAllAccounts(trx, id);
      await linkManagerToAccounts(trx, id, accountIds);
    }
    await updateManagerUser(trx, id, {
      name: request.name,
      language: request.language,
      passwordHash: request.password === undefined ? undefined : await hashPassword(request.password),
    });
    // A new password ends the sessions signed in with the old one.
    if (request.password !== undefined) await endSessionsOfUser(trx, id, new Date());
    const updated = await findManager(trx, organizationId, id);
    if (!updated) throw new AppError('NotFound', 'Manager not found');
    // That the password was replaced is worth recording; the password itself never is.
    const after = { ...audited(updated), ...(request.password !== undefined && { passwordChanged: true }) };
    await auditManagerChange(ctx, trx, {
      action: 'manager.updated',
      managerId: id,
      before: audited(before),
      after,
    });
    return updated;
  });
}

/**
 * Removes the manager with their links and refresh tokens. The access hook refuses an access
 * token whose user is gone, so their open sessions end at once. They never held a share link.
 */
export async function deleteManager(ctx: RequestContext, db: Db, id: string): Promise<void> {
  const organizationId = organizationOf(ctx);
  await db.transaction().execute(async (trx) => {
    const before = await findManager(trx, organizationId, id);
    if (!before || !(await deleteManagerRow(trx, organizationId, id))) {
      throw new AppError('NotFound', 'Manager not found');
    }
    await auditManagerChange(ctx, trx, { action: 'manager.deleted', managerId: id, before: audited(before) });
  });
}
