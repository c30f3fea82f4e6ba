import { randomUUID } from 'node:crypto';
import { AppError, parseAmount, type ShopConnection, type ShopPlatform } from '@rayo/shared';
import type { Config } from '../../config.ts';
import { type Db, isUniqueViolation } from '../../db/database.ts';
import type { RequestContext } from '../../http/request-context.ts';
import { organizationOf } from '../accounts/accounts.service.ts';
import { audit } from '../audit/audit.service.ts';
import type { AccessClaims } from '../auth/tokens.ts';
import type { SecretCipher } from '../mfa/secret-cipher.ts';
import { findVirtualBpt } from '../virtual-bpts/virtual-bpts.service.ts';
import { deleteConnection, findConnection, findShopOrderNotified, saveConnection } from './shops.repo.ts';

export type ShopDeps = { db: Db; config: Config; mfaCipher: SecretCipher };

/** A shop checkout stays payable this long: the shopper may come back to the order's link later. */
export const SHOP_CHECKOUT_SECONDS = 24 * 60 * 60;

/** A connection's secret is sealed with its id authenticated alongside, so it opens on no other row. */
export function connectionSecretContext(connectionId: string): string {
  return `shop:${connectionId}`;
}

/** The webhook secret likewise, under a context of its own so the two cannot stand in for each other. */
export function webhookSecretContext(connectionId: string): string {
  return `shop-webhook:${connectionId}`;
}

/** A Shopify app's client id, and the Admin API token minted with it, each under its own context. */
export function clientIdContext(connectionId: string): string {
  return `shop-client-id:${connectionId}`;
}

export function accessTokenContext(connectionId: string): string {
  return `shop-access-token:${connectionId}`;
}

type ConnectionRow = NonNullable<Awaited<ReturnType<typeof findConnection>>>;

/** Where the shop sends the shopper: Shopify's 'Complete payment' link, or Ecwid's paymentUrl. */
export function entryUrl(config: Config, platform: ShopPlatform, shop: string): string {
  return platform === 'shopify'
    ? `${config.publicUrl}/api/public/shopify/pay?shop=${encodeURIComponent(shop)}&order=`
    : `${config.publicUrl}/api/ecwid/payment?storeId=${encodeURIComponent(shop)}`;
}

export function toShopConnection(config: Config, row: ConnectionRow): ShopConnection {
  return {
    platform: row.platform,
    shop: row.shop,
    shopName: row.shop_name,
    virtualBptId: row.virtual_bpt_id,
    entryUrl: entryUrl(config, row.platform, row.shop),
    createdAt: row.created_at.toISOString(),
  };
}

export async function getShopConnection(
  deps: ShopDeps,
  caller: AccessClaims,
  platform: ShopPlatform,
): Promise<{ connection: ShopConnection | null }> {
  const row = await findConnection(deps.db, organizationOf(caller), platform);
  return { connection: row ? toShopConnection(deps.config, row) : null };
}

/** The virtual BPT's charging currency; another organization's id is an invalid input (a body field). */
export async function requireVirtualBptCurrency(db: Db, organizationId: string, virtualBptId: string): Promise<string> {
  const found = await findVirtualBpt(db, organizationId, virtualBptId);
  if (!found) throw new AppError('InvalidInput', 'virtualBptId names no virtual BPT of this organization');
  return found.bpt.currency;
}

/**
 * Saves the organization's store on a platform (replacing the one it had), its secret sealed, and
 * audits it without the secret. The caller has checked the secret with the shop where it can.
 */
export async function saveShopConnection(
  ctx: RequestContext,
  deps: ShopDeps,
  input: {
    platform: ShopPlatform;
    shop: string;
    shopName: string | null;
    virtualBptId: string;
    secret: string;
    /** Shopify's webhook signing key (the app's client secret). */
    webhookSecret?: string;
    /** A Shopify app's client id and the token just minted with it (`secret` is its client secret). */
    shopifyApp?: { clientId: string; accessToken: string; expiresAt: Date };
  },
): Promise<ShopConnection> {
  const organizationId = organizationOf(ctx);
  const id = randomUUID();
  try {
    const row = await deps.db.transaction().execute(async (trx) => {
      const saved = await saveConnection(trx, {
        id,
        organizationId,
        platform: input.platform,
        shop: input.shop,
        shopName: input.shopName,
        virtualBptId: input.virtualBptId,
        secretSealed: deps.mfaCipher.seal(input.secret, connectionSecretContext(id)),
        webhookSecretSealed:
          input.webhookSecret === undefined ? null : deps.mfaCipher.seal(input.webhookSecret, webhookSecretContext(id)),
        ...(input.shopifyApp
          ? {
              shopifyApp: {
                clientIdSealed: deps.mfaCipher.seal(input.shopifyApp.clientId, clientIdContext(id)),
                accessTokenSealed: deps.mfaCipher.seal(input.shopifyApp.accessToken, accessTokenContext(id)),
                accessTokenExpiresAt: input.shopifyApp.expiresAt,
              },
            }
          : {}),
      });
      await audit(ctx, trx, 'settings.shop_connected', {
        organizationId,
        target: `shop_connection:${id}`,
        after: { platform: input.platform, shop: input.shop, virtualBptId: input.virtualBptId },
      });
      return saved;
    });
    return toShopConnection(deps.config, row);
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    throw new AppError('ShopTaken', 'This store is connected to another organization');
  }
}

/** Forgets the organization's store on a platform, if it has one. */
export async function disconnectShop(ctx: RequestContext, deps: ShopDeps, platform: ShopPlatform): Promise<void> {
  const organizationId = organizationOf(ctx);
  await deps.db.transaction().execute(async (trx) => {
    const deleted = await deleteConnection(trx, organizationId, platform);
    // Disconnecting what is not connected leaves it so: the answer is the same.
    if (!deleted) return;
    await audit(ctx, trx, 'settings.shop_disconnected', {
      organizationId,
      target: `shop_connection:${deleted.id}`,
      before: { platform, shop: deleted.shop },
    });
  });
}

/**
 * A shop's decimal amount ("73.0", "1000.00") in the currency's minor units. Shops write
 * trailing zeros past the currency's decimals, which are dropped before the exact parse.
 */
export function shopAmountToMinor(amount: string, currency: string): bigint {
  const trimmed = amount.trim().includes('.') ? amount.trim().replace(/0+$/, '').replace(/\.$/, '') : amount.trim();
  return parseAmount(trimmed, currency);
}

/** Whether the store was told the checkout's order is paid; null when the checkout has no store order. */
export async function isShopOrderNotified(db: Db, checkoutId: string): Promise<boolean | null> {
  return findShopOrderNotified(db, checkoutId);
}
