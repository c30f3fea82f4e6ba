import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { sessionStore } from '../../session/session-store.ts';
import { renderWithProviders } from '../../test-render.tsx';
import { OrganizationPayoutsSection } from './OrganizationPayoutsSection.tsx';

type Answer = { status: number; body?: unknown };

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
      if (!answer) return new Response(JSON.stringify({ code: 'NotFound', message: route }), { status: 404 });
      return new Response(answer.body === undefined ? null : JSON.stringify(answer.body), { status: answer.status });
    }),
  );
  return calls;
}

const ORG = '0b7d8a9e-0000-4000-8000-00000000000a';
const payout = (id: string, state: string) => ({
  id,
  createdAt: '2026-11-20T10:00:00.000Z',
  kind: 'lightning',
  destination: 'cafe@wallet.example',
  amountMsat: 12_345_000,
  feeMsat: 0,
  state,
  attempts: state === 'failed' ? 3 : 0,
  paymentHash: null,
  txid: null,
  confirmations: null,
  sentAt: null,
});
const LIST = `GET /api/back-office/organization/${ORG}/payouts?page=1&pageSize=10`;

async function renderSection(language: 'en' | 'es' = 'en') {
  sessionStore.signIn({ accessToken: 'access', refreshToken: 'refresh', role: 'back_office', language }, true);
  await renderWithProviders(<OrganizationPayoutsSection organizationId={ORG} />, { language });
}

describe('OrganizationPayoutsSection', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    sessionStore.logout();
  });

  it('cancels a failed payout after the confirmation; a sent one has no Cancel', async () => {
    const failed = payout('a1', 'failed');
    const calls = stubServer({
      [LIST]: [
        { status: 200, body: { total: 2, fiat: [], payouts: [failed, payout('a2', 'sent')] } },
        {
          status: 200,
          body: { total: 2, fiat: [], payouts: [{ ...failed, state: 'cancelled' }, payout('a2', 'sent')] },
        },
      ],
      'POST /api/back-office/payouts/a1/cancel': { status: 200, body: { ...failed, state: 'cancelled' } },
    });
    await renderSection();
    const buttons = await screen.findAllByRole('button', { name: /^Cancel the payout of/ });
    expect(buttons).toHaveLength(1);
    await userEvent.click(buttons[0] as HTMLElement);
    const dialog = await screen.findByRole('dialog', { name: 'Cancel this payout?' });
    expect(within(dialog).getByText(/cafe@wallet\.example/)).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel payout' }));
    await waitFor(() => expect(calls).toContain('POST /api/back-office/payouts/a1/cancel'));
    expect(await screen.findByText('Cancelled')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('button', { name: /^Cancel the payout of/ })).toBeNull());
  });

  it("shows the server's reason when the payment may still complete, in Spanish", async () => {
    stubServer({
      [LIST]: { status: 200, body: { total: 1, fiat: [], payouts: [payout('b1', 'pending')] } },
      'POST /api/back-office/payouts/b1/cancel': {
        status: 409,
        body: { code: 'PayoutInFlight', message: 'A payment of this payout may still complete' },
      },
    });
    await renderSection('es');
    await userEvent.click(await screen.findByRole('button', { name: /^Cancelar el pago de/ }));
    const dialog = await screen.findByRole('dialog', { name: '¿Cancelar este pago?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancelar pago' }));
    expect(
      await within(dialog).findByText('Un pago de este envío aún podría completarse. Inténtalo más tarde.'),
    ).toBeInTheDocument();
  });
});
