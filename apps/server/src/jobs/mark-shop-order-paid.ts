import type { Task } from 'graphile-worker';
import { z } from 'zod';
import { markShopOrderPaid } from '../modules/shops/shop-orders.service.ts';
import type { ShopDeps } from '../modules/shops/shops.service.ts';

const PayloadSchema = z.object({ shopOrderId: z.uuid() });

/**
 * One attempt at telling a shop (Shopify's `orderMarkAsPaid`, Ecwid's order PUT) that an order is
 * paid, run after the settlement that enqueued it committed. A failed attempt throws, and
 * graphile-worker retries it with its exponential backoff up to the job's max_attempts
 * (shops.repo.ts); the service makes a run after success a no-op.
 */
export function markShopOrderPaidTask(deps: ShopDeps): Task {
  return async (payload) => {
    const { shopOrderId } = PayloadSchema.parse(payload);
    await markShopOrderPaid(deps, shopOrderId);
  };
}
