import '@shopify/ui-extensions/preact';
import { render } from 'preact';
import { PayWithBitcoin } from './PayWithBitcoin.tsx';

declare const shopify: import('@shopify/ui-extensions/customer-account.order-status.block.render').Api;

export default async () => {
  render(<OrderStatus />, document.body);
};

/**
 * The Order status page does not say how the order was paid, so the block shows for every order
 * that is not cancelled; Rayo's page says so when an order has nothing left to pay.
 */
export function OrderStatus() {
  const order = shopify.order.value;
  if (!order || order.cancelledAt) return null;
  return <PayWithBitcoin host={shopify} orderId={order.id} />;
}
