import { AppError, type ConnectEcwidRequest, EcwidStoreIdSchema, type ShopConnection } from '@rayo/shared';
import { decryptEcwidPayload, ecwidKey, parseEcwidPaymentRequest } from '../../domain/ecwid-payload.ts';
import { organizationOf } from '../accounts/accounts.service.ts';
import type { AccessClaims } from '../auth/tokens.ts';
import { openShopOrderCheckout } from './shop-orders.service.ts';
import { findConnectionByShop } from './shops.repo.ts';
import {
  connectionSecretContext,
  requireVirtualBptCurrency,
  type ShopDeps,
  saveShopConnection,
} from './shops.service.ts';

/**
 * Connects an Ecwid store: its id and the client secret of the payment app installed on it. The
 * secret cannot be checked with Ecwid on its own (it only opens payment requests), so only its
 * shape is: it must hold the 16 characters the key is made of.
 */
export async function connectEcwid(
  deps: ShopDeps,
  caller: AccessClaims,
  request: ConnectEcwidRequest,
  ip: string,
): Promise<ShopConnection> {
  const organizationId = organizationOf(caller);
  await requireVirtualBptCurrency(deps.db, organizationId, request.virtualBptId);
  if (!ecwidKey(request.clientSecret)) {
    throw new AppError('ShopConnectionFailed', 'An Ecwid client secret has at least 16 characters');
  }
  return saveShopConnection(
    deps,
    caller,
    {
      platform: 'ecwid',
      shop: request.storeId,
      shopName: null,
      virtualBptId: request.virtualBptId,
      secret: request.clientSecret,
    },
    ip,
  );
}

export type EcwidPaymentForm = {
  storeId?: string | undefined;
  data?: string | undefined;
  encData?: string | undefined;
};

/**
 * Ecwid's payment request (the app's paymentUrl, a browser form POST): opens `enc_data`
 * (AES-128-GCM) or the legacy `data` (AES-128-CBC) with the store's client secret, and answers
 * the checkout of the order, one per `referenceTransactionId`. The amount and currency come from
 * inside the encrypted order; the shopper returns to Ecwid's `returnUrl`.
 */
export async function openEcwidPayment(deps: ShopDeps, form: EcwidPaymentForm, now = new Date()): Promise<string> {
  const storeId = EcwidStoreIdSchema.safeParse(form.storeId ?? '');
  const encrypted = form.encData ?? form.data;
  if (!storeId.success || !encrypted) throw new AppError('InvalidShopPayload', 'This payment request is not complete');
  const connection = await findConnectionByShop(deps.db, 'ecwid', storeId.data);
  if (!connection) throw new AppError('InvalidShopPayload', 'This store does not take payments with Rayo');
  const secret = deps.mfaCipher.open(connection.secret_sealed, connectionSecretContext(connection.id));
  const json = decryptEcwidPayload(encrypted, secret, form.encData !== undefined ? 'gcm' : 'cbc');
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
