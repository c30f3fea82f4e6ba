import {
  AppError,
  type ConnectShopifyRequest,
  type ShopConnection,
  ShopifyDomainSchema,
  type ShopifyPayQuery,
} from '@rayo/shared';
import {
  fetchShopifyOrder,
  fetchShopifyShop,
  requestShopifyAccessToken,
  type ShopifyAccessToken,
  ShopifyError,
  shopifyOrderGid,
  subscribeShopifyWebhooks,
} from '../../adapters/shops/shopify.ts';
import type { RequestContext } from '../../http/request-context.ts';
import { organizationOf } from '../accounts/accounts.service.ts';
import { openShopOrderCheckout } from './shop-orders.service.ts';
import { callShopifyStore, shopifyApi } from './shopify-session.ts';
import { findConnectionByShop, findShopOrder } from './shops.repo.ts';
import { requireVirtualBptCurrency, type ShopDeps, saveShopConnection, shopAmountToMinor } from './shops.service.ts';

/**
 * Connects a Shopify store through the merchant's app from the Dev Dashboard, installed on the
 * store: Rayo mints an Admin API token with the app's client id and secret, reads the shop's name
 * and currency with it, and subscribes the app to the webhooks it acts on. Each step is a real
 * call, so a wrong id or secret, an app not installed on this store or one without the scopes is
 * refused here rather than when the first shopper pays.
 */
export async function connectShopify(
  ctx: RequestContext,
  deps: ShopDeps,
  request: ConnectShopifyRequest,
): Promise<ShopConnection> {
  const organizationId = organizationOf(ctx);
  const currency = await requireVirtualBptCurrency(deps.db, organizationId, request.virtualBptId);
  const api = shopifyApi(deps);
  let token: ShopifyAccessToken;
  let shop: { name: string; currencyCode: string };
  try {
    token = await requestShopifyAccessToken(api, request.shop, {
      clientId: request.clientId,
      clientSecret: request.clientSecret,
    });
    shop = await fetchShopifyShop(api, request.shop, token.accessToken);
  } catch (error) {
    if (!(error instanceof ShopifyError)) throw error;
    throw new AppError(
      'ShopConnectionFailed',
      error.failure === 'unauthorized'
        ? "Shopify did not accept this app's client id and secret for this store: install the app on the store first"
        : 'Shopify could not be reached with this store domain',
    );
  }
  // Orders are charged in the store's currency, which the virtual BPT's terminal must charge in.
  if (shop.currencyCode !== currency) {
    throw new AppError(
      'InvalidCurrency',
      `The store sells in ${shop.currencyCode}; choose a virtual BPT whose BPT charges in ${shop.currencyCode}`,
    );
  }
  try {
    await subscribeShopifyWebhooks(
      api,
      request.shop,
      token.accessToken,
      `${deps.config.publicUrl}/api/public/shopify/webhooks`,
    );
  } catch (error) {
    if (!(error instanceof ShopifyError)) throw error;
    throw new AppError(
      'ShopConnectionFailed',
      'Shopify did not take the webhook subscriptions: give the app the read_orders and write_orders scopes and try again',
    );
  }
  return saveShopConnection(ctx, deps, {
    platform: 'shopify',
    shop: request.shop,
    shopName: shop.name,
    virtualBptId: request.virtualBptId,
    secret: request.clientSecret,
    // Shopify signs the app's webhooks with its client secret.
    webhookSecret: request.clientSecret,
    shopifyApp: { clientId: request.clientId, accessToken: token.accessToken, expiresAt: token.expiresAt },
  });
}

/**
 * The pay link the app's extensions show on the Thank you and Order status pages: the checkout
 * of the order, its amount read from Shopify (what is still outstanding), never from the link.
 * Answers the checkout id.
 */
export async function openShopifyOrder(deps: ShopDeps, query: ShopifyPayQuery, now = new Date()): Promise<string> {
  const shop = ShopifyDomainSchema.safeParse(query.shop);
  const orderGid = shopifyOrderGid(query.order);
  if (!shop.success || !orderGid) throw new AppError('NotFound', 'This order link is not complete');
  const connection = await findConnectionByShop(deps.db, 'shopify', shop.data);
  if (!connection) throw new AppError('NotFound', 'This store does not take payments with Rayo');
  // An order already sent to a checkout opens that checkout, which shows its confirmation once paid.
  const known = await findShopOrder(deps.db, connection.id, orderGid);
  if (known) return known.checkout_id;
  let order: Awaited<ReturnType<typeof fetchShopifyOrder>>;
  try {
    order = await callShopifyStore(deps, connection.id, (api, domain, token) =>
      fetchShopifyOrder(api, domain, token, orderGid),
    );
  } catch (error) {
    if (!(error instanceof ShopifyError)) throw error;
    throw new AppError('ServiceUnavailable', 'The store did not answer; try again in a moment');
  }
  if (!order) throw new AppError('NotFound', 'The store has no such order');
  const owed = shopAmountToMinor(order.outstanding.amount, order.outstanding.currencyCode);
  if (order.displayFinancialStatus === 'PAID' || owed <= 0n) {
    throw new AppError('ShopOrderNotPayable', 'This order is already paid');
  }
  return openShopOrderCheckout(
    deps,
    {
      connection,
      platform: 'shopify',
      platformOrderId: order.id,
      orderName: order.name,
      amount: order.outstanding.amount,
      currency: order.outstanding.currencyCode,
      redirectUrl: order.statusPageUrl,
    },
    now,
  );
}
