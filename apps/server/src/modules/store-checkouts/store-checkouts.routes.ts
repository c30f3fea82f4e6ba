import { callerOf } from '../../http/access.ts';
import type { App } from '../../http/app-type.ts';
import { registerCall } from '../../http/contract.ts';
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
  registerCall(app, 'POST /api/checkouts', async (request, reply) => {
    const { checkout, created } = await createStoreCheckout(deps, callerOf(request), request.body);
    return reply.code(created ? 201 : 200).send(checkout);
  });

  registerCall(app, 'GET /api/checkouts/:id', async (request) =>
    getStoreCheckout(deps, callerOf(request), request.params.id),
  );

  registerCall(app, 'POST /api/public/virtual-bpts/:id/checkouts', async (request, reply) => {
    await enforceRateLimit(deps, reply, publicCreatesPerIp, clientOf(request));
    await enforceSharedLimit(deps, reply, publicCreatesPerStore, request.params.id, clientOf(request));
    const { checkout, created } = await createPublicStoreCheckout(deps, request.params.id, request.body);
    return reply.code(created ? 201 : 200).send(checkout);
  });
}
