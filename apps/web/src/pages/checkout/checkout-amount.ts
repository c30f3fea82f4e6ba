import { type Money, type PublicCheckout, parseAmount, SATS } from '@rayo/shared';

/**
 * What the page shows as the amount: the main line in the currency the checkout was priced in,
 * and the other (sats, or the fiat worth of a sats price) underneath when there is one.
 */
export function checkoutAmounts(checkout: Pick<PublicCheckout, 'amount' | 'fiatAmount' | 'amountSats'>): {
  main: { minor: bigint; currency: string };
  secondary: { minor: bigint; currency: string } | null;
} {
  const toMinor = (money: Money) => ({ minor: parseAmount(money.value, money.currency), currency: money.currency });
  const main = toMinor(checkout.amount);
  if (checkout.amount.currency === SATS) {
    return { main, secondary: checkout.fiatAmount ? toMinor(checkout.fiatAmount) : null };
  }
  return {
    main,
    secondary: checkout.amountSats === null ? null : { minor: BigInt(checkout.amountSats), currency: SATS },
  };
}
