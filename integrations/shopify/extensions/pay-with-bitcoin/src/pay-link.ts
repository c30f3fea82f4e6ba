/**
 * The pay link of an order: Rayo's `/api/public/shopify/pay`, naming the store and the order by
 * their ids only. The amount is never in the link; Rayo reads what is outstanding from Shopify.
 * Undefined when the merchant's Rayo address is not an https URL or the order id is not an
 * order's, so that nothing is shown rather than a link that cannot work.
 */
export function payLink(rayoUrl: unknown, shop: string, orderId: string): string | undefined {
  if (typeof rayoUrl !== 'string') return undefined;
  let base: URL;
  try {
    base = new URL(rayoUrl.trim());
  } catch {
    return undefined;
  }
  const order = /^(?:gid:\/\/shopify\/Order\/)?(\d{1,20})$/.exec(orderId)?.[1];
  if (base.protocol !== 'https:' || base.username !== '' || base.password !== '' || !order) return undefined;
  const link = new URL('/api/public/shopify/pay', base.origin);
  link.searchParams.set('shop', shop);
  link.searchParams.set('order', order);
  return link.toString();
}
