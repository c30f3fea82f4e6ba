import { adminRoles, organizationRoles } from '../roles.ts';
import {
  CreatedWebhookEndpointSchema,
  CreateWebhookEndpointRequestSchema,
  WebhookDeliveryPageQuerySchema,
  WebhookDeliveryPageSchema,
  WebhookDeliverySchema,
  WebhookEndpointListSchema,
} from '../webhooks.ts';
import { defineCalls } from './call.ts';
import { IdParamsSchema, mfaRefusals } from './common.ts';

const tags = ['webhooks'];

/** Webhooks (Integrations): managers see the endpoints and the delivery log, only admins act. */
export const webhookCalls = defineCalls({
  'GET /api/webhooks': {
    operationId: 'listWebhookEndpoints',
    tags,
    summary: "The organization's webhook endpoints, without their signing secrets",
    answer: WebhookEndpointListSchema,
    who: organizationRoles,
    refusals: [],
  },
  'POST /api/webhooks': {
    operationId: 'createWebhookEndpoint',
    tags,
    summary: 'Adds a webhook endpoint for the events listed; its signing secret is answered this once',
    description:
      "The URL must be https to a public host, checked before the MFA code: with MFA on, the call needs a code in the `mfa-code` header. The events it receives are this document's `webhooks`.",
    body: CreateWebhookEndpointRequestSchema,
    answer: CreatedWebhookEndpointSchema,
    statuses: [201],
    who: adminRoles,
    refusals: ['InvalidWebhookUrl', 'WebhookEndpointLimit', ...mfaRefusals],
  },
  'DELETE /api/webhooks/:id': {
    operationId: 'deleteWebhookEndpoint',
    tags,
    summary: 'Deletes a webhook endpoint: it receives nothing more; its deliveries stay in the log',
    params: IdParamsSchema,
    who: adminRoles,
    scope: { param: 'id', within: 'organization' },
    refusals: [],
  },
  'POST /api/webhooks/:id/test': {
    operationId: 'sendTestWebhook',
    tags,
    summary: 'Sends the endpoint a signed `webhook.test` event, logged like any delivery',
    params: IdParamsSchema,
    answer: WebhookDeliverySchema,
    statuses: [202],
    who: adminRoles,
    scope: { param: 'id', within: 'organization' },
    refusals: [],
  },
  'GET /api/webhooks/deliveries': {
    operationId: 'listWebhookDeliveries',
    tags,
    summary: 'The delivery log, newest first: each event sent to each endpoint, with its attempts',
    query: WebhookDeliveryPageQuerySchema,
    answer: WebhookDeliveryPageSchema,
    who: organizationRoles,
    refusals: [],
  },
  'POST /api/webhooks/deliveries/:id/redeliver': {
    operationId: 'redeliverWebhook',
    tags,
    summary: 'Sends a delivery again, with the same id and body, delivered or not',
    params: IdParamsSchema,
    answer: WebhookDeliverySchema,
    statuses: [202],
    who: adminRoles,
    scope: { param: 'id', within: 'organization' },
    refusals: [],
  },
});
