import '@shopify/ui-extensions/preact';
import { render } from 'preact';
import { PayWithBitcoin } from './PayWithBitcoin.tsx';

declare const shopify: import('@shopify/ui-extensions/purchase.thank-you.block.render').Api;

export default async () => {
  render(<ThankYou />, document.body);
};

/** Shown only when the shopper chose a manual payment method, such as 'Bitcoin (Lightning)'. */
export function ThankYou() {
  const manual = shopify.selectedPaymentOptions.value.some((option) => option.type === 'manualPayment');
  if (!manual) return null;
  return <PayWithBitcoin host={shopify} orderId={shopify.orderConfirmation.value.order.id} />;
}
