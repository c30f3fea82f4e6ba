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

const endpointColumns = ['id', 'url', 'events', 'active', 'created_at'] as const;

/** The organization's active endpoints, newest first. */
export async function listActiveEndpoints(db: Db, organizationId: string) {
  return db
    .selectFrom('webhook_endpoints')
    .select(endpointColumns)
    .where('organization_id', '=', organizationId)
    .where('active', '=', true)
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .execute();
}

/**
 * Takes the organization's row for the rest of the transaction, so two creations at once count
 * each other's endpoint against the limit.
 */
export async function lockOrganizationForEndpoints(db: Db, organizationId: string): Promise<boolean> {
  const row = await db
    .selectFrom('organizations')
    .select('id')
    .where('id', '=', organizationId)
    .forUpdate()
    .executeTakeFirst();
  return row !== undefined;
}

export async function insertEndpoint(
  db: Db,
  endpoint: { id: string; organizationId: string; url: string; secretSealed: string; events: WebhookEventType[] },
) {
  return db
    .insertInto('webhook_endpoints')
    .values({
      id: endpoint.id,
      organization_id: endpoint.organizationId,
      url: endpoint.url,
      secret_sealed: endpoint.secretSealed,
      events: endpoint.events,
    })
    .returning(endpointColumns)
    .executeTakeFirstOrThrow();
}

/** Stops one of the organization's endpoints receiving; undefined when it has no such active endpoint. */
export async function deactivateEndpoint(db: Db, organizationId: string, id: string) {
  return db
    .updateTable('webhook_endpoints')
    .set({ active: false })
    .where('id', '=', id)
    .where('organization_id', '=', organizationId)
    .where('active', '=', true)
    .returning(['id', 'url', 'events'])
    .executeTakeFirst();
}

export async function findActiveEndpoint(db: Db, organizationId: string, id: string) {
  return db
    .selectFrom('webhook_endpoints')
    .select(endpointColumns)
    .where('id', '=', id)
    .where('organization_id', '=', organizationId)
    .where('active', '=', true)
    .executeTakeFirst();
}

/** A delivery of the test event to one endpoint; its id. */
export async function insertTestDelivery(
  db: Db,
  organizationId: string,
  endpointId: string,
  payload: Record<string, unknown>,
): Promise<string> {
  const row = await db
    .insertInto('webhook_deliveries')
    .values({
      endpoint_id: endpointId,
      organization_id: organizationId,
      type: 'webhook.test',
      payload: JSON.stringify(payload),
      next_attempt_at: sql<Date>`now()`,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** The organization's deliveries (or the one `id` names), newest first, with their endpoint's URL. */
export async function listDeliveries(
  db: Db,
  organizationId: string,
  page: { offset: number; limit: number; id?: string },
) {
  let query = db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhook_endpoints as e', 'e.id', 'd.endpoint_id')
    .select([
      'd.id',
      'd.endpoint_id',
      'e.url',
      'd.type',
      'd.created_at',
      'd.attempts',
      'd.last_status',
      'd.last_error',
      'd.delivered_at',
      'd.next_attempt_at',
    ])
    .where('d.organization_id', '=', organizationId);
  if (page.id) query = query.where('d.id', '=', page.id);
  return query.orderBy('d.created_at', 'desc').orderBy('d.id').offset(page.offset).limit(page.limit).execute();
}

export async function countDeliveries(db: Db, organizationId: string): Promise<number> {
  const row = await db
    .selectFrom('webhook_deliveries')
    .select((eb) => eb.fn.countAll<string>().as('count'))
    .where('organization_id', '=', organizationId)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** Marks one of the organization's deliveries as due again; undefined when it has no such delivery. */
export async function scheduleRedelivery(db: Db, organizationId: string, id: string) {
  return db
    .updateTable('webhook_deliveries')
    .set({ next_attempt_at: sql<Date>`now()` })
    .where('id', '=', id)
    .where('organization_id', '=', organizationId)
    .returning(['id', 'endpoint_id', 'type'])
    .executeTakeFirst();
}

/** What the delivery job sends; undefined once the delivery is gone. */
export async function findDeliveryToSend(db: Db, id: string) {
  return db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhook_endpoints as e', 'e.id', 'd.endpoint_id')
    .select([
      'd.id',
      'd.endpoint_id',
      'd.type',
      'd.payload',
      'd.created_at',
      'd.delivered_at',
      'e.url',
      'e.secret_sealed',
      'e.active',
    ])
    .where('d.id', '=', id)
    .executeTakeFirst();
}

/** Records one attempt's outcome in the delivery log. */
export async function recordAttempt(
  db: Db,
  id: string,
  outcome: { status: number | null; error: string | null; deliveredAt: Date | null; nextAttemptAt: Date | null },
): Promise<void> {
  await db
    .updateTable('webhook_deliveries')
    .set((eb) => ({
      attempts: eb('attempts', '+', 1),
      last_status: outcome.status,
      last_error: outcome.error,
      next_attempt_at: outcome.nextAttemptAt,
      ...(outcome.deliveredAt ? { delivered_at: outcome.deliveredAt } : {}),
    }))
    .where('id', '=', id)
    .execute();
}
