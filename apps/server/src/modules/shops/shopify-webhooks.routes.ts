import { publicContextOf } from '../../http/access.ts';
import type { App } from '../../http/app-type.ts';
import {
  clientOf,
  enforceRateLimit,
  enforceSharedLimit,
  type RateLimitDeps,
  type RateLimitRule,
  type SharedLimitRule,
} from '../../http/rate-limit.ts';
import { receiveShopifyWebhook } from './shopify-webhooks.service.ts';
import type { ShopDeps } from './shops.service.ts';

/**
 * A store's webhooks come in bursts (an import, a bulk edit); a caller guessing signatures meets
 * these first. Shopify's own senders keep a fair share of a store's budget when others spent it.
 */
const webhooksPerIp: RateLimitRule = { name: 'shopify-webhook-ip', limit: 600, windowSeconds: 10 * 60 };
const webhooksPerShop: SharedLimitRule = {
  name: 'shopify-webhook-shop',
  perCaller: 600,
  perLink: 1200,
  guaranteed: 100,
  windowSeconds: 10 * 60,
};
/** Order payloads are a few kilobytes; Shopify's largest stay well below this. */
const WEBHOOK_MAX_BYTES = 1024 * 1024;

function header(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

export function registerShopifyWebhookRoutes(app: App, deps: ShopDeps & RateLimitDeps): void {
  // The signature covers the exact bytes Shopify sent, so this route alone gets them unparsed.
  app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: WEBHOOK_MAX_BYTES }, (_request, body, done) =>
      done(null, body),
    );
    scope.post(
      '/api/public/shopify/webhooks',
      {
        schema: {
          tags: ['shops'],
          summary:
            "Shopify's webhooks (orders/cancelled, orders/paid, app/uninstalled, and the compliance topics customers/data_request, customers/redact, shop/redact), signed with the app's client secret in X-Shopify-Hmac-Sha256 over the raw body (401 otherwise); a body is acted on only under the topic its shape fits (400 otherwise); a repeated X-Shopify-Webhook-Id is acknowledged and not acted on again",
        },
      },
      async (request, reply) => {
        const shop = header(request.headers['x-shopify-shop-domain']);
        await enforceRateLimit(deps, reply, webhooksPerIp, clientOf(request));
        const store = `shopify-webhook:${(shop ?? '').toLowerCase().slice(0, 255)}`;
        await enforceSharedLimit(deps, reply, webhooksPerShop, store, clientOf(request));
        const rawBody = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
        const result = await receiveShopifyWebhook(publicContextOf(request), deps, {
          shop,
          topic: header(request.headers['x-shopify-topic']),
          webhookId: header(request.headers['x-shopify-webhook-id']),
          hmac: header(request.headers['x-shopify-hmac-sha256']),
          rawBody,
        });
        return reply.status(200).send(result);
      },
    );
  });
}
