import type { Task } from 'graphile-worker';
import { z } from 'zod';
import { attemptWebhookDelivery, type WebhookDeps } from '../modules/webhooks/webhooks.service.ts';

const PayloadSchema = z.object({ deliveryId: z.uuid(), redeliver: z.boolean().default(false) });

/**
 * One attempt at a webhook delivery. A failed attempt throws, and graphile-worker retries it with
 * its exponential backoff up to the job's max_attempts (webhooks.repo.ts).
 */
export function deliverWebhookTask(deps: WebhookDeps): Task {
  return async (payload, helpers) => {
    const { deliveryId, redeliver } = PayloadSchema.parse(payload);
    await attemptWebhookDelivery(deps, deliveryId, {
      attempt: helpers.job.attempts,
      maxAttempts: helpers.job.max_attempts,
      redeliver,
    });
  };
}
