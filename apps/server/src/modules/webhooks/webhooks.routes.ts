import {
  CreatedWebhookEndpointSchema,
  CreateWebhookEndpointRequestSchema,
  MFA_CODE_HEADER,
  WebhookDeliveryPageQuerySchema,
  WebhookDeliveryPageSchema,
  WebhookDeliverySchema,
  WebhookEndpointListSchema,
} from '@rayo/shared';
import { z } from 'zod';
import { callerOf } from '../../http/access.ts';
import type { App } from '../../http/app-type.ts';
import { requireMfaCode } from '../../http/mfa-code.ts';
import type { RateLimitDeps } from '../../http/rate-limit.ts';
import {
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  listWebhookDeliveries,
  listWebhookEndpoints,
  redeliverWebhook,
  refuseInvalidWebhookUrl,
  sendTestWebhook,
  type WebhookDeps,
} from './webhooks.service.ts';

const tags = ['webhooks'];

export function registerWebhookRoutes(app: App, deps: WebhookDeps & RateLimitDeps): void {
  app.get(
    '/api/webhooks',
    {
      schema: {
        tags,
        summary: "The organization's webhook endpoints, without their signing secrets",
        response: { 200: WebhookEndpointListSchema },
      },
    },
    async (request) => listWebhookEndpoints(deps.db, callerOf(request)),
  );

  app.post(
    '/api/webhooks',
    {
      preHandler: [
        async (request) => {
          refuseInvalidWebhookUrl(deps.config, request.body.url);
        },
        requireMfaCode(deps),
      ],
      schema: {
        tags,
        summary: `Adds a webhook endpoint (https, public host) for the events listed; its signing secret is answered this once. With MFA on, needs a code in the ${MFA_CODE_HEADER} header`,
        body: CreateWebhookEndpointRequestSchema,
        response: { 201: CreatedWebhookEndpointSchema },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await createWebhookEndpoint(callerOf(request), deps, request.body)),
  );

  app.delete(
    '/api/webhooks/:id',
    {
      schema: {
        tags,
        summary: 'Deletes a webhook endpoint: it receives nothing more; its deliveries stay in the log',
        params: z.object({ id: z.uuid() }),
      },
    },
    async (request, reply) => {
      await deleteWebhookEndpoint(callerOf(request), deps.db, request.params.id);
      return reply.status(204).send();
    },
  );

  app.post(
    '/api/webhooks/:id/test',
    {
      schema: {
        tags,
        summary: 'Sends the endpoint a signed `webhook.test` event, logged like any delivery',
        params: z.object({ id: z.uuid() }),
        response: { 202: WebhookDeliverySchema },
      },
    },
    async (request, reply) =>
      reply.status(202).send(await sendTestWebhook(deps.db, callerOf(request), request.params.id)),
  );

  app.get(
    '/api/webhooks/deliveries',
    {
      schema: {
        tags,
        summary: 'The delivery log, newest first: each event sent to each endpoint, with its attempts',
        querystring: WebhookDeliveryPageQuerySchema,
        response: { 200: WebhookDeliveryPageSchema },
      },
    },
    async (request) => listWebhookDeliveries(deps.db, callerOf(request), request.query),
  );

  app.post(
    '/api/webhooks/deliveries/:id/redeliver',
    {
      schema: {
        tags,
        summary: 'Sends a delivery again, with the same id and body, delivered or not',
        params: z.object({ id: z.uuid() }),
        response: { 202: WebhookDeliverySchema },
      },
    },
    async (request, reply) =>
      reply.status(202).send(await redeliverWebhook(deps.db, callerOf(request), request.params.id)),
  );
}
