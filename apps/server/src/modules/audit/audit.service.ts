import type { Db } from '../../db/database.ts';
import type { RequestContext } from '../../http/request-context.ts';
import { type AuditAction, type AuditEntry, insertAuditEntry } from './audit.repo.ts';

/** What an entry says beyond who did it and from where, which the request context gives. */
export type AuditDetails = Omit<AuditEntry, 'action' | 'actorUserId' | 'actorEmail' | 'ip'>;

/**
 * Records what the caller of `ctx` did. `db` is the transaction of the change when there is one,
 * so that the entry and the change are written together or not at all.
 */
export async function audit(
  ctx: RequestContext,
  db: Db,
  action: AuditAction,
  details: AuditDetails = {},
): Promise<void> {
  await insertAuditEntry(db, { action, actorUserId: ctx.userId, actorEmail: ctx.actorEmail, ip: ctx.ip, ...details });
}
