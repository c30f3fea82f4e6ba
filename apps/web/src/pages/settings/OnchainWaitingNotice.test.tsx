import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { sessionStore } from '../../session/session-store.ts';
import { renderWithProviders } from '../../test-render.tsx';
import { PayoutHistorySection } from './PayoutHistorySection.tsx';

function stubPayouts(onchainWaiting: unknown) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => Response.json({ total: 0, payouts: [], fiat: [], holds: [], onchainWaiting })),
  );
}

async function renderSection(language: 'en' | 'es') {
  sessionStore.signIn({ accessToken: 'access', refreshToken: 'refresh', role: 'admin', language }, true);
  await renderWithProviders(<PayoutHistorySection />, { language });
}

describe("the merchant's on-chain payout that waits", () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    sessionStore.logout();
  });

  it('says how much waits for the platform wallet, and since when', async () => {
    stubPayouts({
      owedSats: 2_800_000,
      reason: 'wallet_funds',
      since: '2026-11-27T10:00:00.000Z',
      minimumSats: 10_000,
    });
    await renderSection('en');
    const notice = await screen.findByTestId('onchain-waiting');
    expect(notice).toHaveTextContent('2,800,000 sats wait to be paid on-chain');
    expect(notice).toHaveTextContent("The platform's wallet cannot cover this payout yet.");
    expect(notice).toHaveTextContent(/Waiting since .*2026/);
  });

  it('names the minimum a small on-chain share waits for, in Spanish', async () => {
    stubPayouts({ owedSats: 990, reason: 'below_minimum', since: '2026-11-27T10:00:00.000Z', minimumSats: 10_000 });
    await renderSection('es');
    const notice = await screen.findByTestId('onchain-waiting');
    // No organization loaded here: Spanish as Latin America writes it (es-419).
    expect(notice).toHaveTextContent('Los pagos on-chain salen cuando alcanzan 10,000 sats.');
  });

  it('says nothing when no on-chain share waits', async () => {
    stubPayouts(null);
    await renderSection('en');
    expect(await screen.findByText('No payouts yet.')).toBeInTheDocument();
    expect(screen.queryByTestId('onchain-waiting')).not.toBeInTheDocument();
  });
});
