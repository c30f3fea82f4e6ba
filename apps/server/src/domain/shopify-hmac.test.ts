import { describe, expect, it } from 'vitest';
import { shopifyHmac, verifyShopifyHmac } from './shopify-hmac.ts';

describe('Shopify webhook HMAC', () => {
  const body = Buffer.from('{"id":820982911946154508,"email":"jon@example.com"}');
  const secret = 'shpss_0123456789abcdef0123456789abcdef';

  it('accepts the signature of these very bytes with this secret only', () => {
    const header = shopifyHmac(body, secret);
    expect(header).toMatch(/^[A-Za-z0-9+/]{43}=$/);
    expect(verifyShopifyHmac(body, header, secret)).toBe(true);
    expect(verifyShopifyHmac(body, header, `${secret}x`)).toBe(false);
    // Re-serialized JSON is other bytes: the raw body is what is signed.
    expect(verifyShopifyHmac(Buffer.from('{"id": 820982911946154508,"email":"jon@example.com"}'), header, secret)).toBe(
      false,
    );
  });

  it('refuses a missing, malformed or truncated header', () => {
    const header = shopifyHmac(body, secret);
    for (const wrong of [undefined, '', 'abc', header.slice(0, 20), `${header}AA`, header.replace(/.$/, '!')]) {
      expect(verifyShopifyHmac(body, wrong, secret)).toBe(false);
    }
  });
});
