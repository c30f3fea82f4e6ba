import type { WebhookEventType } from '@rayo/shared';
import type { Db } from '../../db/database.ts';
import { addDeliveryJob, insertDeliveriesForEvent } from './webhooks.repo.ts';

/**
 * Records a webhook event for every active endpoint of the organization subscribed to `type`,
 * and enqueues each delivery. Call it with the transaction that makes the event true (a
 * settlement, a status change): the deliveries and their jobs then exist iff it commits, and a
 * job runs only after the commit, so the receiver never hears of something rolled back.
 */
export async function enqueueWebhookEvent(
  trx: Db,
  organizationId: string,
  type: WebhookEventType,
  payload: Record<string, unknown>,
): Promise<void> {
  const deliveryIds = await insertDeliveriesForEvent(trx, organizationId, type, payload);
  for (const deliveryId of deliveryIds) await addDeliveryJob(trx, deliveryId);
}
