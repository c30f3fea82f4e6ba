import type { PublicCheckout } from '@rayo/shared';
import { act, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../test-render.tsx';
import { CheckoutPaid, STORE_POLL_MS, STORE_WAIT_MS } from './CheckoutPaid.tsx';

const paid: PublicCheckout = {
  id: 'c-1',
  kind: 'store',
  status: 'paid',
  description: 'Order 1001',
  orderId: '1001',
  merchant: { name: 'Librería Aurora', logoUrl: null, accentColor: null },
  countryCode: 'MX',
  language: 'es',
  amount: { currency: 'MXN', value: '250.00' },
  fiatAmount: { currency: 'MXN', value: '250.00' },
  amountSats: 12_000,
  invoice: null,
  expiresAt: null,
  receiptTokens: [],
  redirectUrl: 'https://shop.example/orders/1001',
  storeNotified: false,
  paidVia: 'lightning',
  paidAt: '2026-11-24T08:00:00.000Z',
  latePayment: false,
  extraPayment: false,
  underpaid: null,
  onchain: null,
};

afterEach(() => vi.useRealTimers());

async function show(checkout: PublicCheckout, onRecheck = () => {}) {
  return renderWithProviders(<CheckoutPaid checkout={checkout} accent={null} onRecheck={onRecheck} />);
}

describe('the way back to a shop', () => {
  it('waits until the shop knows the order is paid, asking again meanwhile', async () => {
    vi.useFakeTimers();
    const onRecheck = vi.fn();
    const view = await show(paid, onRecheck);
    expect(screen.queryByRole('link', { name: 'Return to the store' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Return to the store' })).toBeDisabled();
    expect(screen.getByText('Letting the store know your order is paid…')).toBeInTheDocument();
    await act(() => vi.advanceTimersByTimeAsync(STORE_POLL_MS * 2));
    expect(onRecheck).toHaveBeenCalledTimes(2);

    view.rerender(<CheckoutPaid checkout={{ ...paid, storeNotified: true }} accent={null} onRecheck={onRecheck} />);
    expect(screen.getByRole('link', { name: 'Return to the store' })).toHaveAttribute(
      'href',
      'https://shop.example/orders/1001',
    );
    await act(() => vi.advanceTimersByTimeAsync(STORE_POLL_MS * 3));
    expect(onRecheck).toHaveBeenCalledTimes(2);
  });

  it('opens the way back anyway once the shop has been slow for too long', async () => {
    vi.useFakeTimers();
    await show(paid);
    await act(() => vi.advanceTimersByTimeAsync(STORE_WAIT_MS));
    expect(screen.getByRole('link', { name: 'Return to the store' })).toBeInTheDocument();
  });

  it('shows the link at once for a checkout that is no shop order', async () => {
    await show({ ...paid, storeNotified: null });
    expect(screen.getByRole('link', { name: 'Return to the store' })).toBeInTheDocument();
  });
});

describe("the paid page's receipt", () => {
  it('hands over a QR and a link to each paid sale, and offers mail without demanding it', async () => {
    const token = 'R'.repeat(32);
    await show({ ...paid, storeNotified: null, receiptTokens: [token] });
    expect(await screen.findByRole('img', { name: 'QR code of the receipt' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Receipt' })).toHaveAttribute(
      'href',
      `${window.location.origin}/receipts/${token}`,
    );
    const address = screen.getByRole('textbox', { name: 'Email the receipt to' });
    expect(address).not.toBeRequired();
    expect(screen.getByRole('button', { name: 'Send' })).toBeDisabled();
  });
});
