import { createHmac, timingSafeEqual } from 'node:crypto';

/** Shopify's webhook signature: base64 of HMAC-SHA256 over the raw body, keyed with the app's secret. */
export function shopifyHmac(rawBody: Buffer, secret: string): string {
  return createHmac('sha256', secret).update(rawBody).digest('base64');
}

/**
 * True when `header` (X-Shopify-Hmac-Sha256) signs exactly these bytes. Compared in constant time
 * over the decoded digests, so a caller learns nothing from how long a wrong guess took.
 */
export function verifyShopifyHmac(rawBody: Buffer, header: string | undefined, secret: string): boolean {
  if (header === undefined || !/^[A-Za-z0-9+/]{43}=$/.test(header.trim())) return false;
  const given = Buffer.from(header.trim(), 'base64');
  const expected = createHmac('sha256', secret).update(rawBody).digest();
  return given.length === expected.length && timingSafeEqual(given, expected);
}
