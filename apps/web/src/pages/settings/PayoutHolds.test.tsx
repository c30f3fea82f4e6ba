import type { Role } from '@rayo/shared';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { sessionStore } from '../../session/session-store.ts';
import { renderWithProviders } from '../../test-render.tsx';
import { PayoutHistorySection } from './PayoutHistorySection.tsx';

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

const LIST = 'GET /api/settings/payouts?page=1&pageSize=10';
const CHANGE = '5d0c7a2e-0000-4000-8000-0000000000c1';
const lightningHold = {
  changeId: CHANGE,
  kind: 'lightning',
  changedAt: '2026-11-27T10:00:00.000Z',
  releaseAt: '2026-11-29T10:00:00.000Z',
};
const page = (holds: unknown[]) => ({ status: 200, body: { total: 0, payouts: [], fiat: [], holds } });

async function renderSection(role: Role, language: 'en' | 'es' = 'en') {
  sessionStore.signIn({ accessToken: 'access', refreshToken: 'refresh', role, language }, true);
  await renderWithProviders(<PayoutHistorySection />, { language });
}

describe('payouts held by a changed destination', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    sessionStore.logout();
  });

  it('says why Lightning payouts wait and until when, and an admin cancels the change', async () => {
    const calls = stubServer({
      [LIST]: [page([lightningHold]), page([])],
      'GET /api/settings/mfa': { status: 200, body: { hasMfa: false } },
      [`POST /api/settings/payout-destination-changes/${CHANGE}/cancel`]: {
        status: 200,
        body: { kind: 'lightning' },
      },
    });
    await renderSection('admin');
    expect(await screen.findByText('Lightning payouts are on hold')).toBeInTheDocument();
    expect(
      screen.getByText(
        /^Your Lightning address changed on .+\. Nothing is sent to it before .+, unless our team verifies it sooner\./,
      ),
    ).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Cancel this change' }));
    expect(
      await screen.findByText('The Lightning address from before the change comes back, and payouts go there again.'),
    ).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Cancel the change' }));
    await waitFor(() => expect(screen.queryByText('Lightning payouts are on hold')).not.toBeInTheDocument());
    expect(calls).toContain(`POST /api/settings/payout-destination-changes/${CHANGE}/cancel`);
  });

  it('tells a manager, in Spanish, that only back office releases a change nobody was mailed about', async () => {
    stubServer({
      [LIST]: page([{ ...lightningHold, kind: 'bank', releaseAt: null }]),
      'GET /api/settings/mfa': { status: 200, body: { hasMfa: false } },
    });
    await renderSection('manager', 'es');
    expect(await screen.findByText('Las transferencias bancarias están en espera')).toBeInTheDocument();
    expect(screen.getByText(/no pudimos avisar por correo a tus administradores/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Cancelar este cambio' })).not.toBeInTheDocument();
  });
});
