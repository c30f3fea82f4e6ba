import { AppError, type ShopPlatform } from '@rayo/shared';
import { EcwidError, markEcwidOrderPaid } from '../../adapters/shops/ecwid.ts';
import { fetchShopifyOrder, markShopifyOrderPaid, ShopifyError } from '../../adapters/shops/shopify.ts';
import { createCheckout } from '../checkouts/checkouts.service.ts';
import { registerSettlementHandler } from '../ledger/settlement-handlers.ts';
import { callShopifyStore } from './shopify-session.ts';
import {
  addMarkOrderPaidJobs,
  findShopOrder,
  insertShopOrder,
  lockShopOrderToMark,
  recordMarkAttempt,
  updateShopOrderToken,
} from './shops.repo.ts';
import { SHOP_CHECKOUT_SECONDS, type ShopDeps, shopAmountToMinor } from './shops.service.ts';

/** Kept of a failed attempt's reason, on the order row. */
const MAX_ERROR_LENGTH = 300;

export type ShopOrderToOpen = {
  connection: { id: string; organization_id: string; virtual_bpt_id: string; shop: string; shop_name: string | null };
  platform: ShopPlatform;
  /** Shopify's order GID, Ecwid's referenceTransactionId: what the order row is keyed on. */
  platformOrderId: string;
  /** What the shopper and the merchant read as the order, e.g. `#1001`. */
  orderName: string;
  /** The amount as the shop wrote it, and its currency; never from the shopper's browser. */
  amount: string;
  currency: string;
  redirectUrl: string | null;
  /** Ecwid's store token for this order, to be sealed for the job that marks it paid. */
  storeToken?: string;
};

/** Sealed with the order's key authenticated alongside, so it opens on no other order. */
function storeTokenContext(connectionId: string, platformOrderId: string): string {
  return `shop-order:${connectionId}:${platformOrderId}`;
}

/**
 * The checkout of a shop order: the one recorded for the order when there is one (a shopper
 * opening the link twice, a browser re-POSTing Ecwid's form), otherwise a new one, priced in the
 * shop's amount. Two first opens at once meet in `createCheckout`'s order id and the order row's
 * unique key, and both answer the same checkout.
 */
export async function openShopOrderCheckout(deps: ShopDeps, order: ShopOrderToOpen, now = new Date()): Promise<string> {
  const { connection } = order;
  const sealedToken =
    order.storeToken === undefined
      ? null
      : deps.mfaCipher.seal(order.storeToken, storeTokenContext(connection.id, order.platformOrderId));
  const known = await findShopOrder(deps.db, connection.id, order.platformOrderId);
  if (known) {
    if (sealedToken) await updateShopOrderToken(deps.db, known.id, sealedToken);
    return known.checkout_id;
  }
  const currency = order.currency.toUpperCase();
  let minor: bigint;
  try {
    minor = shopAmountToMinor(order.amount, currency);
  } catch {
    throw new AppError('InvalidAmount', `The store's amount ${order.amount} ${currency} is not one Rayo can charge`);
  }
  const label = order.platform === 'shopify' ? 'Shopify' : 'Ecwid';
  const checkout = await createCheckout(
    deps,
    {
      organizationId: connection.organization_id,
      virtualBptId: connection.virtual_bpt_id,
      kind: 'store',
      description: `${connection.shop_name ?? connection.shop} ${order.orderName}`,
      amount: { currency, minor },
      orderId: `${label} ${order.platformOrderId}`,
      ...(order.redirectUrl ? { redirectUrl: order.redirectUrl } : {}),
      metadata: { platform: order.platform, shop: connection.shop, order: order.orderName },
      expiresAt: new Date(now.getTime() + SHOP_CHECKOUT_SECONDS * 1000),
    },
    now,
  );
  await insertShopOrder(deps.db, {
    connectionId: connection.id,
    organizationId: connection.organization_id,
    platform: order.platform,
    platformOrderId: order.platformOrderId,
    checkoutId: checkout.id,
    storeTokenSealed: sealedToken,
  });
  const recorded = await findShopOrder(deps.db, connection.id, order.platformOrderId);
  return recorded?.checkout_id ?? checkout.id;
}

/**
 * A settled payment of a store checkout that sells a shop order gives the order the job that
 * tells the shop, in the settlement's transaction, so the job runs only once the payment commits
 * (modules/ledger/settlement-handlers.ts).
 */
export function registerShopSettlementHandlers(): void {
  registerSettlementHandler('checkout', 'shops', async (trx, invoice) => {
    if (invoice.source_id) await addMarkOrderPaidJobs(trx, invoice.source_id);
  });
}

/** Thrown for an attempt that failed and is to be retried; graphile-worker schedules the retry. */
export class MarkOrderPaidFailed extends Error {}

/**
 * One attempt, by the platform's `*-mark-order-paid` job, at telling the shop that the order is
 * paid. Exactly once: the order row is locked for the attempt, an order already marked is left
 * alone, and for Shopify the order is read first, so that a retry after a mark whose answer was
 * lost (or an order paid in the Shopify admin meanwhile) does not mark it again. A failure is
 * recorded on the row and thrown, for the job's backoff to retry it.
 */
export async function markShopOrderPaid(deps: ShopDeps, shopOrderId: string, now = () => new Date()): Promise<void> {
  const failure = await deps.db.transaction().execute(async (trx) => {
    const order = await lockShopOrderToMark(trx, shopOrderId);
    if (!order || order.marked_paid_at) return null;
    try {
      if (order.platform === 'shopify') {
        await callShopifyStore(deps, order.connection_id, async (api, shop, token) => {
          const current = await fetchShopifyOrder(api, shop, token, order.platform_order_id);
          if (!current) throw new ShopifyError('refused', 'Shopify no longer has this order');
          const owed = shopAmountToMinor(current.outstanding.amount, current.outstanding.currencyCode);
          if (current.displayFinancialStatus !== 'PAID' && owed > 0n) {
            await markShopifyOrderPaid(api, shop, token, order.platform_order_id);
          }
        });
      } else {
        if (!order.store_token_sealed) throw new EcwidError('No store token came with the payment request');
        const token = deps.mfaCipher.open(
          order.store_token_sealed,
          storeTokenContext(order.connection_id, order.platform_order_id),
        );
        const api = {
          apiUrl: deps.config.shops.ecwidApiUrl,
          allowPrivateAddresses: deps.config.webhookAllowPrivateHosts,
        };
        await markEcwidOrderPaid(api, order.shop, order.platform_order_id, token);
      }
    } catch (error) {
      if (!(error instanceof ShopifyError || error instanceof EcwidError)) throw error;
      const message = error.message.slice(0, MAX_ERROR_LENGTH);
      await recordMarkAttempt(trx, order.id, { markedPaidAt: null, error: message });
      return message;
    }
    await recordMarkAttempt(trx, order.id, { markedPaidAt: now(), error: null });
    return null;
  });
  if (failure !== null) throw new MarkOrderPaidFailed(failure);
}
