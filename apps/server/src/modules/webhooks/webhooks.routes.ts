import { callerOf } from '../../http/access.ts';
import type { App } from '../../http/app-type.ts';
import { registerCall } from '../../http/contract.ts';
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

export function registerWebhookRoutes(app: App, deps: WebhookDeps & RateLimitDeps): void {
  registerCall(app, 'GET /api/webhooks', async (request) => listWebhookEndpoints(deps.db, callerOf(request)));

  registerCall(
    app,
    'POST /api/webhooks',
    async (request) => createWebhookEndpoint(callerOf(request), deps, request.body),
    {
      preHandler: [
        // A wrong URL is refused before the MFA code is asked for, so it spends none.
        async (request) => {
          refuseInvalidWebhookUrl(deps.config, request.body.url);
        },
        requireMfaCode(deps),
      ],
    },
  );

  registerCall(app, 'DELETE /api/webhooks/:id', async (request) =>
    deleteWebhookEndpoint(callerOf(request), deps.db, request.params.id),
  );

  registerCall(app, 'POST /api/webhooks/:id/test', async (request) =>
    sendTestWebhook(deps.db, callerOf(request), request.params.id),
  );

  registerCall(app, 'GET /api/webhooks/deliveries', async (request) =>
    listWebhookDeliveries(deps.db, callerOf(request), request.query),
  );

  registerCall(app, 'POST /api/webhooks/deliveries/:id/redeliver', async (request) =>
    redeliverWebhook(deps.db, callerOf(request), request.params.id),
  );
}
