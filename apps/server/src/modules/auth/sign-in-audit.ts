import type { Db } from '../../db/database.ts';
import type { User } from '../../db/schema.ts';
import type { PublicContext } from '../../http/request-context.ts';
import { recordAuditEntry } from '../audit/audit.service.ts';

type Signer = Pick<User, 'id' | 'email' | 'organization_id'>;

/** How the user proved who they are; recorded so that a recovery-code sign-in stands out. */
export type SignInMethod = 'password' | 'mfa_code' | 'recovery_code';

/** Why a sign-in was refused; never the password or code that was tried. */
export type SignInFailure = 'password' | 'email_not_confirmed' | 'mfa_code' | 'mfa_code_reused' | 'recovery_code';

export async function recordSignIn(ctx: PublicContext, db: Db, user: Signer, method: SignInMethod): Promise<void> {
  await recordAuditEntry(db, {
    action: 'auth.signin',
    actorUserId: user.id,
    actorEmail: user.email,
    organizationId: user.organization_id,
    target: `user:${user.id}`,
    ip: ctx.ip,
    after: { method },
  });
}

/** `email` is the address that was tried, which may belong to no user. */
export async function recordFailedSignIn(
  ctx: PublicContext,
  db: Db,
  attempt: { email: string; user: Signer | undefined; reason: SignInFailure },
): Promise<void> {
  const { user } = attempt;
  await recordAuditEntry(db, {
    action: 'auth.signin_failed',
    actorUserId: user?.id ?? null,
    actorEmail: attempt.email,
    organizationId: user?.organization_id ?? null,
    target: user ? `user:${user.id}` : null,
    ip: ctx.ip,
    after: { reason: attempt.reason },
  });
}
