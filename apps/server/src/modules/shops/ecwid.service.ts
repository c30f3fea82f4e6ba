import { AppError, type ConnectEcwidRequest, EcwidStoreIdSchema, type ShopConnection } from '@rayo/shared';
import { EcwidError, fetchEcwidProfile } from '../../adapters/shops/ecwid.ts';
import { decryptEcwidPayload, ecwidKey, parseEcwidPaymentRequest } from '../../domain/ecwid-payload.ts';
import type { RequestContext } from '../../http/request-context.ts';
import { organizationOf } from '../accounts/accounts.service.ts';
import { openShopOrderCheckout } from './shop-orders.service.ts';
import { findConnectionByShop } from './shops.repo.ts';
import {
  connectionSecretContext,
  requireVirtualBptCurrency,
  type ShopDeps,
  saveShopConnection,
} from './shops.service.ts';

/**
 * Connects an Ecwid store: its id and the client secret of the payment app installed on it.
 * Ecwid has no call that takes the client secret itself (it only opens payment requests), so the
 * app is checked through its secret token, from the same Details page: Ecwid must answer the
 * store's profile for this store id with it. A mistyped store id, a token of another store's app
 * or a store without API access is refused here rather than at the first payment. The client
 * secret's shape is checked too (the 16 characters the key is made of); a payment request then
 * opens only with the right one, since its GCM tag fails with any other.
 */
export async function connectEcwid(
  ctx: RequestContext,
  deps: ShopDeps,
  request: ConnectEcwidRequest,
): Promise<ShopConnection> {
  const organizationId = organizationOf(ctx);
  await requireVirtualBptCurrency(deps.db, organizationId, request.virtualBptId);
  if (!ecwidKey(request.clientSecret)) {
    throw new AppError('ShopConnectionFailed', 'An Ecwid client secret has at least 16 characters');
  }
  let profile: Awaited<ReturnType<typeof fetchEcwidProfile>>;
  try {
    profile = await fetchEcwidProfile(
      { apiUrl: deps.config.shops.ecwidApiUrl, allowPrivateAddresses: deps.config.webhookAllowPrivateHosts },
      request.storeId,
      request.secretToken,
    );
  } catch (error) {
    if (!(error instanceof EcwidError)) throw error;
    throw new AppError(
      'ShopConnectionFailed',
      error.failure === 'unauthorized'
        ? 'Ecwid did not accept this secret token for this store id'
        : 'Ecwid could not be reached; try again in a moment',
    );
  }
  if (profile.storeId !== request.storeId) {
    throw new AppError('ShopConnectionFailed', 'Ecwid did not accept this secret token for this store id');
  }
  return saveShopConnection(ctx, deps, {
    platform: 'ecwid',
    shop: request.storeId,
    shopName: profile.storeName,
    virtualBptId: request.virtualBptId,
    secret: request.clientSecret,
  });
}

export type EcwidPaymentForm = {
  storeId?: string | undefined;
  encData?: string | undefined;
};

/**
 * Ecwid's payment request (the app's paymentUrl, a browser form POST): opens `enc_data`
 * (AES-128-GCM) with the store's client secret, and answers the checkout of the order, one per
 * `referenceTransactionId`. The amount and currency come from inside the encrypted order; the
 * shopper returns to Ecwid's `returnUrl`. The legacy `data` field that Ecwid posts beside it is
 * never read: it has no integrity, and a request with only `data` opens nothing.
 */
export async function openEcwidPayment(deps: ShopDeps, form: EcwidPaymentForm, now = new Date()): Promise<string> {
  const storeId = EcwidStoreIdSchema.safeParse(form.storeId ?? '');
  const encrypted = form.encData;
  if (!storeId.success || !encrypted) throw new AppError('InvalidShopPayload', 'This payment request is not complete');
  const connection = await findConnectionByShop(deps.db, 'ecwid', storeId.data);
  if (!connection) throw new AppError('InvalidShopPayload', 'This store does not take payments with Rayo');
  const secret = deps.mfaCipher.open(connection.secret_sealed, connectionSecretContext(connection.id));
  const json = decryptEcwidPayload(encrypted, secret);
  const request = json === undefined ? undefined : parseEcwidPaymentRequest(json);
  if (!request || request.storeId !== storeId.data) {
    throw new AppError('InvalidShopPayload', 'This payment request could not be read');
  }
  return openShopOrderCheckout(
    deps,
    {
      connection,
      platform: 'ecwid',
      platformOrderId: request.referenceTransactionId,
      orderName: `#${request.orderNumber}`,
      amount: request.total,
      currency: request.currency,
      redirectUrl: request.returnUrl,
      storeToken: request.token,
    },
    now,
  );
}
