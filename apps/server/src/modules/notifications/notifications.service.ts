import type { Db } from '../../db/database.ts';
import { insertNotification, type NewNotification } from './notifications.repo.ts';

export type { NewNotification };

/**
 * Tells back office about a change. Pass the change's transaction, so that the notice exists
 * exactly when the change does.
 */
export async function notifyBackOffice(db: Db, notification: NewNotification): Promise<void> {
  await insertNotification(db, notification);
}
