import { describe, expect, it } from 'vitest';
import { checkoutAmounts } from './checkout-amount.ts';

describe('checkoutAmounts', () => {
  it('shows a fiat price first and its sats underneath', () => {
    expect(
      checkoutAmounts({ amount: { currency: 'GTQ', value: '73.00' }, fiatAmount: null, amountSats: 10_000 }),
    ).toEqual({ main: { minor: 7300n, currency: 'GTQ' }, secondary: { minor: 10_000n, currency: 'SAT' } });
  });

  it('shows a sats price first and its fiat worth underneath once an invoice fixed the rate', () => {
    const priced = { amount: { currency: 'SAT', value: '20000' }, amountSats: 20_000 };
    expect(checkoutAmounts({ ...priced, fiatAmount: { currency: 'GTQ', value: '146.00' } })).toEqual({
      main: { minor: 20_000n, currency: 'SAT' },
      secondary: { minor: 14_600n, currency: 'GTQ' },
    });
    expect(checkoutAmounts({ ...priced, fiatAmount: null }).secondary).toBeNull();
  });

  it('has no second line before the sats are known', () => {
    expect(
      checkoutAmounts({ amount: { currency: 'GTQ', value: '5.50' }, fiatAmount: null, amountSats: null }).secondary,
    ).toBeNull();
  });
});
