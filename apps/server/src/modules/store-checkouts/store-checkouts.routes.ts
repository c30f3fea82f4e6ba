import {
  CreatePublicStoreCheckoutRequestSchema,
  CreateStoreCheckoutRequestSchema,
  StoreCheckoutSchema,
} from '@rayo/shared';
import { z } from 'zod';
import { callerOf } from '../../http/access.ts';
import type { App } from '../../http/app-type.ts';
import {
  clientOf,
  enforceRateLimit,
  enforceSharedLimit,
  type RateLimitDeps,
  type RateLimitRule,
  type SharedLimitRule,
} from '../../http/rate-limit.ts';
import {
  createPublicStoreCheckout,
  createStoreCheckout,
  getStoreCheckout,
  type StoreCheckoutDeps,
} from './store-checkouts.service.ts';

const IdParamsSchema = z.object({ id: z.uuid() });

/**
 * The public button creates checkouts for anyone: each address gets a budget over every store
 * and one on each store, and each store one in all, which its shoppers share fairly once
 * addresses have spent it (a shopper opens a checkout or two).
 */
const publicCreatesPerIp: RateLimitRule = { name: 'store-checkout-ip', limit: 20, windowSeconds: 60 };
const publicCreatesPerStore: SharedLimitRule = {
  name: 'store-checkout-vbpt',
  perCaller: 20,
  perLink: 300,
  guaranteed: 3,
  windowSeconds: 60,
};

/** The store checkout API (docs/api.md): 201 for a new checkout, 200 for a retried order. */
export function registerStoreCheckoutRoutes(app: App, deps: StoreCheckoutDeps & RateLimitDeps): void {
  app.post(
    '/api/checkouts',
    {
      schema: {
        tags: ['checkouts'],
        body: CreateStoreCheckoutRequestSchema,
        response: { 200: StoreCheckoutSchema, 201: StoreCheckoutSchema },
      },
    },
    async (request, reply) => {
      const { checkout, created } = await createStoreCheckout(deps, callerOf(request), request.body);
      return reply.code(created ? 201 : 200).send(checkout);
    },
  );

  app.get(
    '/api/checkouts/:id',
    { schema: { tags: ['checkouts'], params: IdParamsSchema, response: { 200: StoreCheckoutSchema } } },
    async (request) => getStoreCheckout(deps, callerOf(request), request.params.id),
  );

  app.post(
    '/api/public/virtual-bpts/:id/checkouts',
    {
      schema: {
        tags: ['checkouts'],
        params: IdParamsSchema,
        body: CreatePublicStoreCheckoutRequestSchema,
        response: { 200: StoreCheckoutSchema, 201: StoreCheckoutSchema },
      },
    },
    async (request, reply) => {
      await enforceRateLimit(deps, reply, publicCreatesPerIp, clientOf(request));
      await enforceSharedLimit(deps, reply, publicCreatesPerStore, request.params.id, clientOf(request));
      const { checkout, created } = await createPublicStoreCheckout(deps, request.params.id, request.body);
      return reply.code(created ? 201 : 200).send(checkout);
    },
  );
}
