import type { Db } from '../../db/database.ts';

/** What the audit log records; a closed set so that exports and filters can rely on the names. */
export type AuditAction =
  | 'auth.signin'
  | 'auth.signin_failed'
  | 'auth.signup'
  | 'auth.email_confirmed'
  | 'auth.password_reset_requested'
  | 'auth.password_reset'
  | 'auth.refresh_token_reused'
  | 'settings.password_changed'
  | 'settings.mfa_enabled'
  | 'settings.mfa_disabled'
  | 'settings.mfa_recovery_used'
  | 'settings.banking_info_changed'
  | 'settings.onchain_address_changed'
  | 'settings.lightning_address_changed'
  | 'settings.payout_destination_change_cancelled'
  | 'settings.language_changed'
  | 'settings.developer_token_created'
  | 'settings.developer_token_revoked'
  | 'settings.payout_split_changed'
  | 'settings.kyb_document_uploaded'
  | 'settings.kyb_document_deleted'
  | 'settings.branding_changed'
  | 'settings.checkout_protection_changed'
  | 'settings.webhook_endpoint_created'
  | 'settings.webhook_endpoint_deleted'
  | 'settings.shop_connected'
  | 'settings.shop_disconnected'
  | 'shop.privacy_request'
  | 'manager.created'
  | 'manager.updated'
  | 'manager.deleted'
  | 'organization.onboarded'
  | 'back_office.transactions_paid'
  | 'back_office.verification_changed'
  | 'back_office.organization_blocked'
  | 'back_office.organization_unblocked'
  | 'back_office.notification_deleted'
  | 'back_office.kyb_document_downloaded'
  | 'back_office.onchain_batch_downloaded'
  | 'back_office.onchain_batch_signed'
  | 'back_office.onchain_batch_fee_bumped'
  | 'back_office.deposit_address_created'
  | 'back_office.onchain_payouts_run'
  | 'back_office.audit_exported'
  | 'payout.cancelled'
  | 'payout.created'
  | 'payout.onchain_batch_built'
  | 'refund.created'
  | 'close.schedule_created'
  | 'close.schedule_deleted';

export type AuditEntry = {
  action: AuditAction;
  actorUserId?: string | null;
  actorEmail?: string | null;
  /** The periodic pass that acted, `system:<job key>`, when no person did. */
  actorSystem?: string | null;
  organizationId?: string | null;
  /** What was acted on, e.g. `user:<id>`. */
  target?: string | null;
  /** Never secrets: no passwords, codes or tokens. */
  before?: Record<string, unknown> | null;
  after?: Record<string, unknown> | null;
  ip?: string | null;
};

export async function insertAuditEntry(db: Db, entry: AuditEntry): Promise<void> {
  await db
    .insertInto('audit_log')
    .values({
      action: entry.action,
      actor_user_id: entry.actorUserId ?? null,
      actor_email: entry.actorEmail ?? null,
      actor_system: entry.actorSystem ?? null,
      organization_id: entry.organizationId ?? null,
      target: entry.target ?? null,
      before: entry.before ? JSON.stringify(entry.before) : null,
      after: entry.after ? JSON.stringify(entry.after) : null,
      ip: entry.ip ?? null,
    })
    .execute();
}

/** The newest entries first; tests and the back-office export read the log through this. */
export async function listAuditEntries(db: Db, filter: { organizationId?: string; actorUserId?: string } = {}) {
  let query = db.selectFrom('audit_log').selectAll().orderBy('id', 'desc');
  if (filter.organizationId) query = query.where('organization_id', '=', filter.organizationId);
  if (filter.actorUserId) query = query.where('actor_user_id', '=', filter.actorUserId);
  return query.execute();
}
