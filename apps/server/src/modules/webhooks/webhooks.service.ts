import { randomBytes, randomUUID } from 'node:crypto';
import {
  AppError,
  type CreatedWebhookEndpoint,
  type CreateWebhookEndpointRequest,
  WEBHOOK_DELIVERY_HEADER,
  WEBHOOK_ENDPOINT_LIMIT,
  WEBHOOK_EVENT_HEADER,
  WEBHOOK_SECRET_PREFIX,
  WEBHOOK_SIGNATURE_HEADER,
  type WebhookDelivery,
  type WebhookDeliveryPage,
  type WebhookDeliveryPageQuery,
  type WebhookEndpoint,
  type WebhookEventType,
} from '@rayo/shared';
import { postSafely, SafeFetchError } from '../../adapters/lnurl/safe-fetch.ts';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/database.ts';
import { signWebhook } from '../../domain/webhook-signature.ts';
import { checkWebhookUrl } from '../../domain/webhook-url.ts';
import type { RequestContext } from '../../http/request-context.ts';
import { webhookDeliveries } from '../../metrics.ts';
import { organizationOf } from '../accounts/accounts.service.ts';
import { audit } from '../audit/audit.service.ts';
import type { AccessClaims } from '../auth/tokens.ts';
import type { SecretCipher } from '../mfa/secret-cipher.ts';
import {
  addDeliveryJob,
  countDeliveries,
  deactivateEndpoint,
  findActiveEndpoint,
  findDeliveryToSend,
  insertDeliveriesForEvent,
  insertEndpoint,
  insertTestDelivery,
  listActiveEndpoints,
  listDeliveries,
  lockOrganizationForEndpoints,
  recordAttempt,
  scheduleRedelivery,
} from './webhooks.repo.ts';

export type WebhookDeps = { db: Db; config: Config; mfaCipher: SecretCipher };

/** A receiver that has not answered in this long counts as down for this attempt. */
const DELIVERY_TIMEOUT_MS = 10_000;
/** Kept of a failed attempt's reason, for the delivery log. */
const MAX_ERROR_LENGTH = 300;

/** The secret is sealed with the endpoint's id authenticated alongside, so it opens on no other row. */
function secretContext(endpointId: string): string {
  return `webhook:${endpointId}`;
}

type EndpointRow = { id: string; url: string; events: WebhookEventType[]; active: boolean; created_at: Date };

function toEndpoint(row: EndpointRow): WebhookEndpoint {
  return {
    id: row.id,
    url: row.url,
    events: row.events,
    active: row.active,
    createdAt: row.created_at.toISOString(),
  };
}

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

export async function listWebhookEndpoints(db: Db, caller: AccessClaims): Promise<WebhookEndpoint[]> {
  return (await listActiveEndpoints(db, organizationOf(caller))).map(toEndpoint);
}

/**
 * Refuses a URL no endpoint may have. The route checks it before the MFA code, so the merchant
 * hears of a wrong URL before being asked for a code, and no code is spent on it.
 */
export function refuseInvalidWebhookUrl(config: Pick<Config, 'webhookAllowPrivateHosts'>, url: string): URL {
  const checked = checkWebhookUrl(url, config.webhookAllowPrivateHosts);
  if (!checked.ok) throw new AppError('InvalidWebhookUrl', checked.reason);
  return checked.url;
}

/** A new endpoint; its signing secret is answered this once, and kept sealed to sign deliveries. */
export async function createWebhookEndpoint(
  ctx: RequestContext,
  deps: WebhookDeps,
  request: CreateWebhookEndpointRequest,
): Promise<CreatedWebhookEndpoint> {
  const organizationId = organizationOf(ctx);
  const url = refuseInvalidWebhookUrl(deps.config, request.url);
  const id = randomUUID();
  const secret = `${WEBHOOK_SECRET_PREFIX}${randomBytes(24).toString('base64url')}`;
  const events = [...new Set(request.events)];
  const row = await deps.db.transaction().execute(async (trx) => {
    if (!(await lockOrganizationForEndpoints(trx, organizationId))) {
      throw new AppError('NotFound', 'Organization not found');
    }
    if ((await listActiveEndpoints(trx, organizationId)).length >= WEBHOOK_ENDPOINT_LIMIT) {
      throw new AppError(
        'WebhookEndpointLimit',
        `An organization may hold ${WEBHOOK_ENDPOINT_LIMIT} webhook endpoints; delete one to add another`,
      );
    }
    const created = await insertEndpoint(trx, {
      id,
      organizationId,
      url: url.toString(),
      secretSealed: deps.mfaCipher.seal(secret, secretContext(id)),
      events,
    });
    await audit(ctx, trx, 'settings.webhook_endpoint_created', {
      organizationId,
      target: `webhook_endpoint:${id}`,
      after: { url: created.url, events },
    });
    return created;
  });
  return { ...toEndpoint(row), secret };
}

/** Stops an endpoint receiving; its deliveries stay in the log, and pending retries are dropped. */
export async function deleteWebhookEndpoint(ctx: RequestContext, db: Db, id: string): Promise<void> {
  const organizationId = organizationOf(ctx);
  await db.transaction().execute(async (trx) => {
    const deleted = await deactivateEndpoint(trx, organizationId, id);
    if (!deleted) throw new AppError('NotFound', 'Webhook endpoint not found');
    await audit(ctx, trx, 'settings.webhook_endpoint_deleted', {
      organizationId,
      target: `webhook_endpoint:${deleted.id}`,
      before: { url: deleted.url, events: deleted.events },
    });
  });
}

/** Sends the endpoint a `webhook.test` delivery, logged like any other. */
export async function sendTestWebhook(db: Db, caller: AccessClaims, endpointId: string): Promise<WebhookDelivery> {
  const organizationId = organizationOf(caller);
  const deliveryId = await db.transaction().execute(async (trx) => {
    const endpoint = await findActiveEndpoint(trx, organizationId, endpointId);
    if (!endpoint) throw new AppError('NotFound', 'Webhook endpoint not found');
    const id = await insertTestDelivery(trx, organizationId, endpoint.id, { test: true });
    await addDeliveryJob(trx, id);
    return id;
  });
  return findLoggedDelivery(db, organizationId, deliveryId);
}

/**
 * Sends a delivery again, delivered or not, with the same id and body (the receiver's
 * idempotency key). A retry still pending is replaced by this attempt, not added to.
 */
export async function redeliverWebhook(db: Db, caller: AccessClaims, deliveryId: string): Promise<WebhookDelivery> {
  const organizationId = organizationOf(caller);
  await db.transaction().execute(async (trx) => {
    const delivery = await scheduleRedelivery(trx, organizationId, deliveryId);
    if (!delivery) throw new AppError('NotFound', 'Webhook delivery not found');
    await addDeliveryJob(trx, delivery.id, true);
  });
  return findLoggedDelivery(db, organizationId, deliveryId);
}

type DeliveryRow = Awaited<ReturnType<typeof listDeliveries>>[number];

function toDelivery(row: DeliveryRow): WebhookDelivery {
  return {
    id: row.id,
    endpointId: row.endpoint_id,
    url: row.url,
    type: row.type,
    createdAt: row.created_at.toISOString(),
    attempts: row.attempts,
    lastStatus: row.last_status,
    lastError: row.last_error,
    deliveredAt: row.delivered_at?.toISOString() ?? null,
    nextAttemptAt: row.next_attempt_at?.toISOString() ?? null,
  };
}

async function findLoggedDelivery(db: Db, organizationId: string, id: string): Promise<WebhookDelivery> {
  const rows = await listDeliveries(db, organizationId, { offset: 0, limit: 1, id });
  const row = rows[0];
  if (!row) throw new AppError('NotFound', 'Webhook delivery not found');
  return toDelivery(row);
}

export async function listWebhookDeliveries(
  db: Db,
  caller: AccessClaims,
  query: WebhookDeliveryPageQuery,
): Promise<WebhookDeliveryPage> {
  const organizationId = organizationOf(caller);
  const [rows, total] = await Promise.all([
    listDeliveries(db, organizationId, { offset: (query.page - 1) * query.limit, limit: query.limit }),
    countDeliveries(db, organizationId),
  ]);
  return { deliveries: rows.map(toDelivery), total };
}

/** The body of a delivery: frozen at the event, so every attempt sends (and signs) the same bytes. */
function webhookBody(delivery: {
  id: string;
  type: string;
  created_at: Date;
  payload: Record<string, unknown>;
}): string {
  return JSON.stringify({
    id: delivery.id,
    type: delivery.type,
    createdAt: delivery.created_at.toISOString(),
    data: delivery.payload,
  });
}

/** graphile-worker's retry delay after failed attempt `attempt`: exp(min(attempt, 10)) seconds. */
function retryDelayMs(attempt: number): number {
  return Math.round(Math.exp(Math.min(attempt, 10)) * 1000);
}

export type DeliveryAttempt = { attempt: number; maxAttempts: number; redeliver: boolean };

/** Thrown for an attempt that failed and is to be retried; graphile-worker schedules the retry. */
class DeliveryFailed extends Error {}

/**
 * One attempt at a delivery, made by the `deliver-webhook` job: POSTs the signed body and records
 * the outcome. Throws `DeliveryFailed` when the receiver did not take it and attempts remain.
 * A delivery already delivered is not sent again unless this is a redelivery, so a job that runs
 * twice (a worker lost after POSTing) costs at most one duplicate, which the receiver can tell by
 * the `Rayo-Delivery` id.
 */
export async function attemptWebhookDelivery(
  deps: WebhookDeps,
  deliveryId: string,
  attempt: DeliveryAttempt,
  now: () => Date = () => new Date(),
): Promise<void> {
  const delivery = await findDeliveryToSend(deps.db, deliveryId);
  if (!delivery?.active) return;
  if (delivery.delivered_at && !attempt.redeliver) return;
  const fail = async (status: number | null, error: string, retry: boolean) => {
    const last = !retry || attempt.attempt >= attempt.maxAttempts;
    const nextAttemptAt = last ? null : new Date(now().getTime() + retryDelayMs(attempt.attempt));
    await recordAttempt(deps.db, deliveryId, {
      status,
      error: error.slice(0, MAX_ERROR_LENGTH),
      deliveredAt: null,
      nextAttemptAt,
    });
    webhookDeliveries.inc({ outcome: last ? 'failed' : 'retried' });
    if (!last) throw new DeliveryFailed(error);
  };
  const checked = checkWebhookUrl(delivery.url, deps.config.webhookAllowPrivateHosts);
  if (!checked.ok) return fail(null, checked.reason, false);
  const body = webhookBody(delivery);
  const secret = deps.mfaCipher.open(delivery.secret_sealed, secretContext(delivery.endpoint_id));
  const headers = {
    'content-type': 'application/json',
    'user-agent': 'Rayo-Webhooks',
    [WEBHOOK_SIGNATURE_HEADER]: signWebhook(secret, Math.floor(now().getTime() / 1000), body),
    [WEBHOOK_EVENT_HEADER]: delivery.type,
    [WEBHOOK_DELIVERY_HEADER]: delivery.id,
  };
  let status: number;
  try {
    status = await postSafely(
      checked.url,
      { body, headers },
      { signal: AbortSignal.timeout(DELIVERY_TIMEOUT_MS), allowPrivateAddresses: deps.config.webhookAllowPrivateHosts },
    );
  } catch (error) {
    if (!(error instanceof SafeFetchError)) throw error;
    const reason =
      error.failure === 'timeout' ? 'No answer within 10 s' : String(error.details.reason ?? 'Unreachable');
    return fail(null, reason, true);
  }
  if (status >= 200 && status < 300) {
    await recordAttempt(deps.db, deliveryId, { status, error: null, deliveredAt: now(), nextAttemptAt: null });
    webhookDeliveries.inc({ outcome: 'delivered' });
    return;
  }
  return fail(status, `The endpoint answered HTTP ${status}`, true);
}
