import { z } from 'zod';

// Shopify and Ecwid stores selling through a virtual BPT (docs/integrations.md).

export const SHOP_PLATFORMS = ['shopify', 'ecwid'] as const;
export const ShopPlatformSchema = z.enum(SHOP_PLATFORMS);
export type ShopPlatform = z.infer<typeof ShopPlatformSchema>;

/**
 * A Shopify store's own domain, anchored as Shopify's security checks ask: any other host would
 * let a caller point our Admin API calls somewhere else.
 */
export const SHOPIFY_DOMAIN_PATTERN = /^[a-zA-Z0-9][a-zA-Z0-9-]*\.myshopify\.com$/;
export const ShopifyDomainSchema = z
  .string()
  .trim()
  .toLowerCase()
  .max(255)
  .regex(SHOPIFY_DOMAIN_PATTERN, 'A Shopify store domain ends in .myshopify.com');

/** The name the merchant gives the manual payment method, which the setup steps suggest. */
export const SHOPIFY_PAYMENT_METHOD_NAME = 'Bitcoin (Lightning)';

export const ConnectShopifyRequestSchema = z.object({
  shop: ShopifyDomainSchema,
  /**
   * The client id of the merchant's Rayo app in Shopify's Dev Dashboard (Settings → Client ID).
   * Kept sealed, never answered.
   */
  clientId: z
    .string()
    .trim()
    .max(255)
    .regex(/^[A-Za-z0-9_-]{16,}$/, "A Shopify client id is the app's 32-character id from the Dev Dashboard"),
  /**
   * The app's client secret (`shpss_…`): Rayo mints Admin API tokens with it (the client
   * credentials grant) and checks Shopify's webhook signatures with it. Kept sealed, never answered.
   */
  clientSecret: z.string().trim().min(16).max(255),
  virtualBptId: z.uuid(),
});
export type ConnectShopifyRequest = z.infer<typeof ConnectShopifyRequestSchema>;

/** An Ecwid store id: a positive whole number. */
export const EcwidStoreIdSchema = z
  .string()
  .trim()
  .regex(/^\d{1,18}$/, 'An Ecwid store id is a number');

export const ConnectEcwidRequestSchema = z.object({
  storeId: EcwidStoreIdSchema,
  /** The app's client secret: it opens the payment requests; kept sealed, never answered. */
  clientSecret: z.string().trim().min(16).max(255),
  /**
   * The app's secret access token (`secret_…`), from the same Details page: Rayo reads the
   * store's profile with it when saving, so a wrong store id or an app of another store is
   * refused then. Used for that call only, never kept.
   */
  secretToken: z
    .string()
    .trim()
    .max(255)
    .regex(/^secret_[A-Za-z0-9]{8,}$/, 'An Ecwid secret token starts with secret_'),
  virtualBptId: z.uuid(),
});
export type ConnectEcwidRequest = z.infer<typeof ConnectEcwidRequestSchema>;

/** A connected store as the merchant sees it: never its token or secret. */
export const ShopConnectionSchema = z.object({
  platform: ShopPlatformSchema,
  /** The `*.myshopify.com` domain or the Ecwid store id. */
  shop: z.string(),
  shopName: z.string().nullable(),
  virtualBptId: z.string(),
  /**
   * Shopify: the start of the pay link (`…/api/public/shopify/pay?shop=…&order=`), which the
   * app's extensions complete with the order's id; Ecwid: the app's paymentUrl.
   */
  entryUrl: z.string(),
  createdAt: z.iso.datetime(),
});
export type ShopConnection = z.infer<typeof ShopConnectionSchema>;
/** The organization's connection for a platform, or null when none is saved. */
export const ShopConnectionStateSchema = z.object({ connection: ShopConnectionSchema.nullable() });
export type ShopConnectionState = z.infer<typeof ShopConnectionStateSchema>;

export const ShopifyPayQuerySchema = z.object({
  shop: z.string().max(255),
  /** The order's numeric id or its `gid://shopify/Order/…`; the amount is always read from Shopify. */
  order: z.string().max(100),
});
export type ShopifyPayQuery = z.infer<typeof ShopifyPayQuerySchema>;
