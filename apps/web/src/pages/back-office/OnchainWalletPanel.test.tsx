import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { sessionStore } from '../../session/session-store.ts';
import { renderWithProviders } from '../../test-render.tsx';
import { OnchainWalletPanel } from './OnchainWalletPanel.tsx';

const ADDRESS = 'bcrt1qnjg0jd8228aq7egyzacy8cys3knf9xvr3v5hfj';

const summary = (changes: object = {}) => ({
  chain: 'devnet',
  network: 'regtest',
  signing: 'hot',
  owedSats: 2_824_158,
  organizationsOwed: 3,
  heldSats: 19_178,
  unconfirmedSats: 0,
  waitingSats: 2_804_980,
  waiting: [
    {
      organizationId: '5d0c7a2e-0000-4000-8000-0000000000a1',
      organizationName: 'Tienda Luna',
      owedSats: 2_800_000,
      reason: 'wallet_funds',
      since: '2026-11-27T10:00:00.000Z',
    },
    {
      organizationId: '5d0c7a2e-0000-4000-8000-0000000000a2',
      organizationName: 'Librería Aurora',
      owedSats: 4_980,
      reason: 'no_address',
      since: '2026-11-26T10:00:00.000Z',
    },
  ],
  minimumSats: 10_000,
  depositAddress: null,
  unusedReceiveAddresses: 0,
  ...changes,
});

type Answer = { status: number; body: unknown };

/** Answers each `METHOD /api/path` from `routes` (lists are answered in turn), recording the calls. */
function stubServer(routes: Record<string, Answer | Answer[]>) {
  const calls: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      const route = `${init.method ?? 'GET'} ${url}`;
      calls.push(route);
      const planned = routes[route];
      const answer = Array.isArray(planned) ? (planned.length > 1 ? planned.shift() : planned[0]) : planned;
      if (!answer) return Response.json({ code: 'NotFound', message: route }, { status: 404 });
      return Response.json(answer.body, { status: answer.status });
    }),
  );
  return calls;
}

async function renderPanel(language: 'en' | 'es' = 'en') {
  sessionStore.signIn({ accessToken: 'access', refreshToken: 'refresh', role: 'back_office', language }, true);
  await renderWithProviders(<OnchainWalletPanel />, { language, route: '/' });
}

const WALLET = 'GET /api/back-office/onchain-wallet';
const DEPOSIT = 'POST /api/back-office/onchain-wallet/deposit-address';
const RUN = 'POST /api/back-office/onchain-wallet/run';

describe('OnchainWalletPanel', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    sessionStore.logout();
  });

  it('shows what is owed against what the wallet holds, who waits and why, and hands out a deposit address', async () => {
    const calls = stubServer({
      [WALLET]: [
        { status: 200, body: summary() },
        { status: 200, body: summary({ depositAddress: ADDRESS, unusedReceiveAddresses: 1 }) },
      ],
      [DEPOSIT]: { status: 200, body: { address: ADDRESS } },
    });
    await renderPanel();
    expect(await screen.findByTestId('wallet-owed')).toHaveTextContent('2,824,158 sats');
    expect(screen.getByTestId('wallet-owed')).toHaveTextContent('3 organizations');
    expect(screen.getByTestId('wallet-held')).toHaveTextContent('19,178 sats');
    expect(screen.getByTestId('wallet-waiting')).toHaveTextContent('2,804,980 sats');
    // Only those waiting for the wallet's funds count in the shortfall.
    expect(screen.getByRole('status')).toHaveTextContent(
      '2,800,000 sats owed to 1 organization wait for funds. Send bitcoin to the deposit address below',
    );
    const rows = within(screen.getByTestId('onchain-waiting')).getAllByRole('row');
    expect(rows[1]).toHaveTextContent('Tienda Luna');
    expect(rows[1]).toHaveTextContent('The wallet cannot cover it');
    expect(rows[2]).toHaveTextContent('Librería Aurora');
    expect(rows[2]).toHaveTextContent('No on-chain address');

    await userEvent.click(screen.getByRole('button', { name: 'Get a deposit address' }));
    expect(await screen.findByTestId('deposit-address-value')).toHaveTextContent(ADDRESS);
    expect(calls).toContain(DEPOSIT);
    expect(screen.getByRole('button', { name: 'New address' })).toBeInTheDocument();
    expect(screen.getByTestId('receive-gap')).toHaveTextContent(
      '1 receive address was handed out after the last one paid',
    );
    expect(screen.getByRole('link', { name: 'Open the devnet wallet' })).toHaveAttribute('href', '/devnet/wallet');
  });

  it('runs the payouts now and shows the wallet as the run left it', async () => {
    const calls = stubServer({
      [WALLET]: { status: 200, body: summary() },
      [RUN]: {
        status: 200,
        body: summary({ owedSats: 4_980, organizationsOwed: 1, waitingSats: 4_980, waiting: [summary().waiting[1]] }),
      },
    });
    await renderPanel('es');
    await screen.findByTestId('wallet-owed');
    await userEvent.click(screen.getByRole('button', { name: 'Ejecutar los pagos ahora' }));
    await waitFor(() => expect(calls).toContain(RUN));
    await waitFor(() => expect(screen.queryByRole('status')).not.toBeInTheDocument());
    expect(screen.getByTestId('onchain-waiting')).toHaveTextContent('Sin dirección on-chain');
    expect(screen.getByTestId('onchain-waiting')).not.toHaveTextContent('Tienda Luna');
  });

  it('says there is no platform wallet and offers neither a run nor an address', async () => {
    stubServer({
      [WALLET]: {
        status: 200,
        body: summary({ signing: null, chain: 'esplora', waiting: [], waitingSats: 0 }),
      },
    });
    await renderPanel();
    expect(await screen.findByText(/This platform has no on-chain wallet/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Run the payouts now' })).not.toBeInTheDocument();
    expect(screen.queryByTestId('deposit-address')).not.toBeInTheDocument();
  });
  it('at 0 sats asks for the wallet to be funded, not that its coins are confirmed', async () => {
    stubServer({ [WALLET]: { status: 200, body: summary({ heldSats: 0 }) } });
    await renderPanel('es');
    const held = await screen.findByTestId('wallet-held');
    expect(held).toHaveTextContent('Fondear la billetera');
    expect(held).not.toHaveTextContent('Confirmado');
  });
});
