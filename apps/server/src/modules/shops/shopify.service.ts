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
  type ShopifyApi,
  ShopifyError,
  shopifyOrderGid,
  subscribeShopifyWebhooks,
} from '../../adapters/shops/shopify.ts';
import { organizationOf } from '../accounts/accounts.service.ts';
import type { AccessClaims } from '../auth/tokens.ts';
import { openShopOrderCheckout } from './shop-orders.service.ts';
import { findConnectionByShop, findShopOrder } from './shops.repo.ts';
import {
  connectionSecretContext,
  requireVirtualBptCurrency,
  type ShopDeps,
  saveShopConnection,
  shopAmountToMinor,
} from './shops.service.ts';

function shopifyApi(deps: ShopDeps): ShopifyApi {
  return { apiUrl: deps.config.shops.shopifyApiUrl, allowPrivateAddresses: deps.config.webhookAllowPrivateHosts };
}

/**
 * Connects a Shopify store through its custom app's Admin API token, after a real call (the
 * shop's name) proves the domain and the token belong together: a mistyped token is refused
 * here rather than when the first shopper pays.
 */
export async function connectShopify(
  deps: ShopDeps,
  caller: AccessClaims,
  request: ConnectShopifyRequest,
  ip: string,
): Promise<ShopConnection> {
  const organizationId = organizationOf(caller);
  const currency = await requireVirtualBptCurrency(deps.db, organizationId, request.virtualBptId);
  let shop: { name: string; currencyCode: string };
  try {
    shop = await fetchShopifyShop(shopifyApi(deps), request.shop, request.accessToken);
  } catch (error) {
    if (!(error instanceof ShopifyError)) throw error;
    throw new AppError(
      'ShopConnectionFailed',
      error.failure === 'unauthorized'
        ? 'Shopify did not accept this access token for this store'
        : 'Shopify could not be reached with this store domain and token',
    );
  }
  // Orders are charged in the store's currency, which the virtual BPT's terminal must charge in.
  if (shop.currencyCode !== currency) {
    throw new AppError(
      'InvalidCurrency',
      `The store sells in ${shop.currencyCode}; choose a virtual BPT whose BPT charges in ${shop.currencyCode}`,
    );
  }
  // With the API secret key the store's webhooks can be verified, so the app subscribes to them.
  if (request.apiSecretKey !== undefined) {
    try {
      await subscribeShopifyWebhooks(
        shopifyApi(deps),
        request.shop,
        request.accessToken,
        `${deps.config.publicUrl}/api/public/shopify/webhooks`,
      );
    } catch (error) {
      if (!(error instanceof ShopifyError)) throw error;
      throw new AppError(
        'ShopConnectionFailed',
        'Shopify did not take the webhook subscriptions: give the app the read_orders scope and try again',
      );
    }
  }
  return saveShopConnection(
    deps,
    caller,
    {
      platform: 'shopify',
      shop: request.shop,
      shopName: shop.name,
      virtualBptId: request.virtualBptId,
      secret: request.accessToken,
      webhookSecret: request.apiSecretKey,
    },
    ip,
  );
}

/**
 * The order status page's 'Complete payment' link: the checkout of the order, its amount read
 * from Shopify (what is still outstanding), never from the link. Answers the checkout id.
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
  const token = deps.mfaCipher.open(connection.secret_sealed, connectionSecretContext(connection.id));
  let order: Awaited<ReturnType<typeof fetchShopifyOrder>>;
  try {
    order = await fetchShopifyOrder(shopifyApi(deps), shop.data, token, orderGid);
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
