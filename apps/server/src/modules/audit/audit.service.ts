import type { Db } from '../../db/database.ts';
import type { ActorContext } from '../../http/request-context.ts';
import { type AuditAction, type AuditEntry, insertAuditEntry } from './audit.repo.ts';

export type { AuditAction, AuditEntry };

/** What an entry says beyond who did it and from where, which the context gives. */
export type AuditDetails = Omit<AuditEntry, 'action' | 'actorUserId' | 'actorEmail' | 'actorSystem' | 'ip'>;

/**
 * Records what the caller or the pass of `ctx` did. `db` is the transaction of the change when
 * there is one, so that the entry and the change are written together or not at all.
 */
export async function audit(ctx: ActorContext, db: Db, action: AuditAction, details: AuditDetails = {}): Promise<void> {
  const actor =
    'system' in ctx ? { actorSystem: ctx.system } : { actorUserId: ctx.userId, actorEmail: ctx.actorEmail, ip: ctx.ip };
  await recordAuditEntry(db, { action, ...actor, ...details });
}

/**
 * Records an entry of a flow without a signed-in caller (sign-in, sign-up, a mailed link, a shop's
 * webhook), which names its actor itself. `db` is the change's transaction when there is one.
 */
export async function recordAuditEntry(db: Db, entry: AuditEntry): Promise<void> {
  await insertAuditEntry(db, entry);
}
