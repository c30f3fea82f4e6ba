import type { Role, Transaction } from '@rayo/shared';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { sessionStore } from '../../session/session-store.ts';
import { renderWithProviders } from '../../test-render.tsx';
import { RefundModal } from './RefundModal.tsx';

afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
});

const sale = { id: 'tx-1' } as Transaction;
const refund = {
  id: 'r-1',
  transactionId: 'tx-1',
  amountMsat: 5_000_000,
  fiatAmount: '3.00',
  currency: 'USD',
  method: 'lnurl-withdraw',
  state: 'open',
  createdAt: '2026-11-28T01:00:00.000Z',
  createdBy: 'admin@rayo.local',
  paidAt: null,
  destination: null,
  txid: null,
  lnurl: 'LNURL1DP68GURN8GHJ7',
};

/** The modal for `role`, with the server's answers to the refunds list and a refund. */
async function renderModal(role: Role, refunds: object[] = [], made: object = refund) {
  sessionStore.signIn({ accessToken: 'token', refreshToken: 'refresh', role, language: 'en' }, false);
  const calls: { url: string; init?: RequestInit }[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      calls.push({ url, ...(init ? { init } : {}) });
      if (init?.method === 'POST') return Response.json(made);
      return Response.json({ saleMsat: 5_000_000, refundableMsat: refunds.length ? 0 : 5_000_000, refunds });
    }),
  );
  await renderWithProviders(<RefundModal transaction={sale} onClose={() => {}} />);
  return calls;
}

describe('the refund dialog', () => {
  it('lets an admin refund the rest of the sale with one key, and shows the link to give the customer', async () => {
    const calls = await renderModal('admin');
    const all = await screen.findByRole('button', { name: 'Refund 5,000 sats' });
    await userEvent.click(all);
    expect(await screen.findByRole('textbox', { name: 'Refund link' })).toHaveValue(refund.lnurl);
    const posts = calls.filter((call) => call.init?.method === 'POST');
    expect(posts).toHaveLength(1);
    expect(JSON.parse(String(posts[0]?.init?.body))).toMatchObject({ amountMsat: 5_000_000 });
    expect(posts[0]?.url).toContain('/transactions/tx-1/refunds');
  });

  it("pays the customer's Lightning invoice or address when the admin gives one, and needs it first", async () => {
    const calls = await renderModal('admin');
    await userEvent.click(await screen.findByText('Lightning invoice or address'));
    const all = screen.getByRole('button', { name: 'Refund 5,000 sats' });
    expect(all).toBeDisabled();
    await userEvent.type(
      screen.getByRole('textbox', { name: "Customer's Lightning invoice or address" }),
      ' customer@wallet.example ',
    );
    await userEvent.click(all);
    await waitFor(() => expect(calls.filter((call) => call.init?.method === 'POST')).toHaveLength(1));
    const post = calls.find((call) => call.init?.method === 'POST');
    expect(JSON.parse(String(post?.init?.body))).toMatchObject({
      amountMsat: 5_000_000,
      destination: 'customer@wallet.example',
    });
  });

  it("sends the refund on-chain to the customer's Bitcoin address, and says it is on its way", async () => {
    const address = 'bcrt1qw508d6qejxtdg4y5r3zarvary0c5xw7kygt080';
    const calls = await renderModal('admin', [], {
      ...refund,
      method: 'onchain-address',
      state: 'paying',
      destination: address,
      lnurl: null,
    });
    await userEvent.click(await screen.findByText('Bitcoin address'));
    const all = screen.getByRole('button', { name: 'Refund 5,000 sats' });
    expect(all).toBeDisabled();
    await userEvent.type(screen.getByRole('textbox', { name: "Customer's Bitcoin address" }), `${address} `);
    await userEvent.click(all);
    expect(await screen.findByText(/sending the refund on-chain/)).toBeInTheDocument();
    const post = calls.find((call) => call.init?.method === 'POST');
    expect(JSON.parse(String(post?.init?.body))).toMatchObject({ amountMsat: 5_000_000, destination: address });
  });

  it('shows a manager the refunds and no way to make one', async () => {
    await renderModal('manager', [{ ...refund, lnurl: null }]);
    expect(await screen.findByText('Waiting for the customer')).toBeInTheDocument();
    expect(screen.getByText('Only admins can refund a sale.')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('button', { name: /^Refund/ })).toBeNull());
  });
});
