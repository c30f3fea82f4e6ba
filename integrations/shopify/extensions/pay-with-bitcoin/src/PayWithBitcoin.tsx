import { payLink } from './pay-link.ts';

/**
 * The part of the extension API the block reads, the same on the Thank you page and on the
 * Order status page (`@shopify/ui-extensions`: StandardApi's shop, settings, cost and i18n).
 */
export type PayBlockHost = {
  shop: { myshopifyDomain: string };
  settings: { value: Record<string, unknown> };
  cost: { totalAmount: { value: { amount: number; currencyCode: string } } };
  i18n: {
    translate: (key: string, options?: Record<string, string>) => string;
    formatCurrency: (amount: number, options?: { currency?: string }) => string;
  };
};

/** The amount due and the 'Pay with Bitcoin' button to the order's checkout on Rayo. */
export function PayWithBitcoin({ host, orderId }: { host: PayBlockHost; orderId: string }) {
  const href = payLink(host.settings.value.rayo_url, host.shop.myshopifyDomain, orderId);
  if (!href) return null;
  const total = host.cost.totalAmount.value;
  const amount = host.i18n.formatCurrency(total.amount, { currency: total.currencyCode });
  return (
    <s-stack gap="base">
      <s-heading>{host.i18n.translate('title')}</s-heading>
      <s-text>{host.i18n.translate('amountDue', { amount })}</s-text>
      <s-paragraph>{host.i18n.translate('explanation')}</s-paragraph>
      <s-button variant="primary" href={href}>
        {host.i18n.translate('payWithBitcoin')}
      </s-button>
    </s-stack>
  );
}
