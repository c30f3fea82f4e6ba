import type { NotificationKind } from '@rayo/shared';
import type { Db } from '../../db/database.ts';

/** What back office is told about: a closed set, shared so that its list can name each kind. */
export type { NotificationKind };

export type NewNotification = {
  organizationId: string;
  kind: NotificationKind;
  /** What changed, for back office to read; never secrets. */
  payload: Record<string, unknown>;
};

/** Pass the transaction of the change, so that the notice exists exactly when the change does. */
export async function insertNotification(db: Db, notification: NewNotification): Promise<void> {
  await db
    .insertInto('notifications')
    .values({
      organization_id: notification.organizationId,
      kind: notification.kind,
      payload: JSON.stringify(notification.payload),
    })
    .execute();
}

/** The newest first. */
export async function listNotifications(db: Db, filter: { organizationId?: string } = {}) {
  let query = db.selectFrom('notifications').selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc');
  if (filter.organizationId) query = query.where('organization_id', '=', filter.organizationId);
  return query.execute();
}
