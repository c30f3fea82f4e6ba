import type { WebhookEventType } from '@rayo/shared';
import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';

/** The task that POSTs one delivery (jobs/deliver-webhook.ts). */
export const DELIVER_WEBHOOK_TASK = 'deliver-webhook';
/** Attempts before a delivery is given up: graphile-worker's backoff (exp(min(n, 10)) s) spreads 12 over about a day. */
export const WEBHOOK_MAX_ATTEMPTS = 12;

/**
 * Adds the delivery job in the caller's transaction, so it exists iff the event does. The job
 * key is the delivery id: enqueuing it again (a redelivery) replaces a pending job rather than
 * adding a second one.
 */
export async function addDeliveryJob(db: Db, deliveryId: string, redeliver = false): Promise<void> {
  const payload = JSON.stringify({ deliveryId, redeliver });
  await sql`select graphile_worker.add_job(
    ${DELIVER_WEBHOOK_TASK}, ${payload}::json,
    max_attempts => ${WEBHOOK_MAX_ATTEMPTS}, job_key => ${deliveryId}
  )`.execute(db);
}

/** One delivery row per active endpoint of the organization subscribed to `type`; their ids. */
export async function insertDeliveriesForEvent(
  db: Db,
  organizationId: string,
  type: WebhookEventType,
  payload: Record<string, unknown>,
): Promise<string[]> {
  const rows = await db
    .insertInto('webhook_deliveries')
    .columns(['endpoint_id', 'organization_id', 'type', 'payload', 'next_attempt_at'])
    .expression((eb) =>
      eb
        .selectFrom('webhook_endpoints')
        .select([
          'id',
          'organization_id',
          sql<string>`${type}::text`.as('type'),
          sql`${JSON.stringify(payload)}::jsonb`.as('payload'),
          sql`now()`.as('next_attempt_at'),
        ])
        .where('organization_id', '=', organizationId)
        .where('active', '=', true)
        .where(sql<boolean>`${type} = any(events)`),
    )
    .returning('id')
    .execute();
  return rows.map((row) => row.id);
}
