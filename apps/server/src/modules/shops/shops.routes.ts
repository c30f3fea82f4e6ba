import { ShopifyPayQuerySchema } from '@rayo/shared';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { callerOf } from '../../http/access.ts';
import type { App } from '../../http/app-type.ts';
import { registerCall } from '../../http/contract.ts';
import { requireMfaCode } from '../../http/mfa-code.ts';
import {
  clientOf,
  enforceRateLimit,
  enforceSharedLimit,
  type RateLimitDeps,
  type RateLimitRule,
  type SharedLimitRule,
} from '../../http/rate-limit.ts';
import { connectEcwid, openEcwidPayment } from './ecwid.service.ts';
import { sendShopEntryProblem } from './shop-entry-page.ts';
import { connectShopify, openShopifyOrder } from './shopify.service.ts';
import { disconnectShop, getShopConnection, type ShopDeps } from './shops.service.ts';

const tags = ['shops'];

/**
 * A shopper opens an order's checkout a few times; a script walking order ids meets these first.
 * A shop's budget is shared fairly among its shoppers once addresses have spent it.
 */
const entriesPerIp: RateLimitRule = { name: 'shop-entry-ip', limit: 60, windowSeconds: 10 * 60 };
const entriesPerShop: SharedLimitRule = {
  name: 'shop-entry-shop',
  perCaller: 30,
  perLink: 600,
  guaranteed: 5,
  windowSeconds: 10 * 60,
};

/**
 * Ecwid's form fields are a few kilobytes of base64; more is not a payment request. Ecwid posts
 * the legacy `data` beside `enc_data`: it is accepted in the form and never read.
 */
const ECWID_FORM_MAX_BYTES = 256 * 1024;
const EcwidPaymentBodySchema = z.object({
  data: z.string().max(ECWID_FORM_MAX_BYTES).optional(),
  enc_data: z.string().max(ECWID_FORM_MAX_BYTES).optional(),
  storeId: z.string().max(40).optional(),
});

export function registerShopRoutes(app: App, deps: ShopDeps & RateLimitDeps): void {
  for (const platform of ['shopify', 'ecwid'] as const) {
    registerCall(app, `GET /api/shops/${platform}`, async (request) =>
      getShopConnection(deps, callerOf(request), platform),
    );
    registerCall(app, `DELETE /api/shops/${platform}`, async (request) =>
      disconnectShop(callerOf(request), deps, platform),
    );
  }

  registerCall(
    app,
    'PUT /api/shops/shopify',
    async (request) => connectShopify(callerOf(request), deps, request.body),
    {
      preHandler: [requireMfaCode(deps)],
    },
  );

  registerCall(app, 'PUT /api/shops/ecwid', async (request) => connectEcwid(callerOf(request), deps, request.body), {
    preHandler: [requireMfaCode(deps)],
  });

  // The shopper's entries answer redirects, not JSON: registered by hand.
  app.get(
    '/api/public/shopify/pay',
    {
      schema: {
        tags,
        summary:
          "A Shopify order's 'Complete payment' link: redirects (303) to the checkout of the order's outstanding amount, read from Shopify",
        querystring: ShopifyPayQuerySchema,
      },
    },
    async (request, reply) => {
      try {
        await enforceRateLimit(deps, reply, entriesPerIp, clientOf(request));
        const shop = `shopify:${request.query.shop.toLowerCase()}`;
        await enforceSharedLimit(deps, reply, entriesPerShop, shop, clientOf(request));
        const checkoutId = await openShopifyOrder(deps, request.query);
        return reply.redirect(`/ecommerce/checkout/${checkoutId}`, 303);
      } catch (error) {
        return sendShopEntryProblem(request, reply, error);
      }
    },
  );

  // Ecwid posts an HTML form; the parser is added for this route's scope only.
  app.register(async (scope) => {
    scope.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: 2 * ECWID_FORM_MAX_BYTES },
      (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(String(body)))),
    );
    scope.withTypeProvider<ZodTypeProvider>().post(
      '/api/ecwid/payment',
      {
        schema: {
          tags,
          summary:
            "Ecwid's payment request (the app's paymentUrl, a form POST of `enc_data`; the unsigned legacy `data` is never read): redirects (303) to the order's checkout",
          querystring: z.object({ storeId: z.string().max(40).optional() }),
          body: EcwidPaymentBodySchema,
        },
      },
      async (request, reply) => {
        const storeId = request.query.storeId ?? request.body.storeId;
        try {
          await enforceRateLimit(deps, reply, entriesPerIp, clientOf(request));
          await enforceSharedLimit(deps, reply, entriesPerShop, `ecwid:${storeId ?? ''}`, clientOf(request));
          const checkoutId = await openEcwidPayment(deps, { storeId, encData: request.body.enc_data });
          return reply.redirect(`/ecommerce/checkout/${checkoutId}`, 303);
        } catch (error) {
          return sendShopEntryProblem(request, reply, error);
        }
      },
    );
  });
}
