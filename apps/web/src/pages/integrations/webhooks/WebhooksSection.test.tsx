import type { Role } from '@rayo/shared';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { sessionStore } from '../../../session/session-store.ts';
import { renderWithProviders } from '../../../test-render.tsx';
import { WebhooksSection } from './WebhooksSection.tsx';

type Answer = { status: number; body?: unknown };

/** Answers each `METHOD /api/path` from `routes` (or 404), and records what was sent. */
function stubServer(routes: Record<string, Answer | Answer[]>) {
  const calls: { route: string; headers: Record<string, string>; body: unknown }[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      const route = `${init.method ?? 'GET'} ${url}`;
      calls.push({
        route,
        headers: init.headers as Record<string, string>,
        body: init.body ? JSON.parse(String(init.body)) : undefined,
      });
      const planned = routes[route];
      const answer = Array.isArray(planned) ? (planned.length > 1 ? planned.shift() : planned[0]) : planned;
      if (!answer) return new Response(JSON.stringify({ code: 'NotFound', message: route }), { status: 404 });
      return new Response(answer.body === undefined ? null : JSON.stringify(answer.body), { status: answer.status });
    }),
  );
  return calls;
}

async function renderSection(role: Role, language: 'en' | 'es' = 'en') {
  sessionStore.signIn({ accessToken: 'access', refreshToken: 'refresh', role, language }, true);
  await renderWithProviders(<WebhooksSection />, { language });
}

const endpoint = {
  id: '6f1c1a8e-0000-4000-8000-000000000001',
  url: 'https://shop.example/hooks',
  events: ['checkout.paid'],
  active: true,
  createdAt: '2026-11-20T10:00:00.000Z',
};
const created = { ...endpoint, id: '6f1c1a8e-0000-4000-8000-000000000002', secret: 'whsec_only_once' };
const failing = {
  id: '6f1c1a8e-0000-4000-8000-0000000000d1',
  endpointId: endpoint.id,
  url: endpoint.url,
  type: 'checkout.paid',
  createdAt: '2026-11-20T10:05:00.000Z',
  attempts: 3,
  lastStatus: 500,
  lastError: 'The endpoint answered HTTP 500',
  deliveredAt: null,
  nextAttemptAt: '2026-11-20T10:25:00.000Z',
};
const logPage = { deliveries: [failing], total: 1 };
const LOG = 'GET /api/webhooks/deliveries?page=1&limit=10';

describe('WebhooksSection', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    sessionStore.logout();
  });

  it('adds an endpoint for the events chosen and shows its secret once', async () => {
    const calls = stubServer({
      'GET /api/webhooks': [
        { status: 200, body: [endpoint] },
        { status: 200, body: [created, endpoint] },
      ],
      [LOG]: { status: 200, body: logPage },
      'GET /api/settings/mfa': { status: 200, body: { hasMfa: false } },
      'POST /api/webhooks': { status: 201, body: created },
    });
    await renderSection('admin');
    expect(await screen.findByText('https://shop.example/hooks', { selector: 'p' })).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText('Endpoint URL'), 'https://shop.example/other');
    await userEvent.click(screen.getByRole('checkbox', { name: 'checkout.expired' }));
    await userEvent.click(screen.getByRole('button', { name: 'Add endpoint' }));
    const dialog = await screen.findByRole('dialog', { name: 'Signing secret' });
    expect(within(dialog).getByText('whsec_only_once')).toBeInTheDocument();
    expect(calls.find((c) => c.route === 'POST /api/webhooks')?.body).toEqual({
      url: 'https://shop.example/other',
      events: ['checkout.paid', 'checkout.expired'],
    });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.queryByText('whsec_only_once')).not.toBeInTheDocument());
  });

  it('shows the delivery log and redelivers on request, in Spanish', async () => {
    const calls = stubServer({
      'GET /api/webhooks': { status: 200, body: [endpoint] },
      [LOG]: { status: 200, body: logPage },
      'GET /api/settings/mfa': { status: 200, body: { hasMfa: false } },
      [`POST /api/webhooks/deliveries/${failing.id}/redeliver`]: { status: 202, body: failing },
    });
    await renderSection('admin', 'es');
    const log = await screen.findByTestId('webhook-deliveries');
    expect(within(log).getByText('Reintentando')).toBeInTheDocument();
    expect(within(log).getByText('El destino respondió HTTP 500')).toBeInTheDocument();
    await userEvent.click(within(log).getByRole('button', { name: 'Reenviar' }));
    await waitFor(() =>
      expect(calls.map((c) => c.route)).toContain(`POST /api/webhooks/deliveries/${failing.id}/redeliver`),
    );
  });

  it('explains a refused URL', async () => {
    stubServer({
      'GET /api/webhooks': { status: 200, body: [] },
      [LOG]: { status: 200, body: { deliveries: [], total: 0 } },
      'GET /api/settings/mfa': { status: 200, body: { hasMfa: false } },
      'POST /api/webhooks': { status: 400, body: { code: 'InvalidWebhookUrl', message: 'https only' } },
    });
    await renderSection('admin');
    await userEvent.type(await screen.findByLabelText('Endpoint URL'), 'http://10.0.0.1/hooks');
    await userEvent.click(screen.getByRole('button', { name: 'Add endpoint' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('The URL must be an https address on the internet');
  });

  it('lets managers look without adding, testing, deleting or redelivering', async () => {
    const calls = stubServer({
      'GET /api/webhooks': { status: 200, body: [endpoint] },
      [LOG]: { status: 200, body: logPage },
    });
    await renderSection('manager');
    expect(await screen.findByTestId('webhook-deliveries')).toBeInTheDocument();
    expect(screen.getByTestId('webhook-endpoints')).toBeInTheDocument();
    expect(screen.queryByRole('button')).not.toBeInTheDocument();
    expect(screen.queryByLabelText('Endpoint URL')).not.toBeInTheDocument();
    expect(calls.filter((c) => !c.route.startsWith('GET ')).map((c) => c.route)).toEqual([]);
    expect(calls.map((c) => c.route)).not.toContain('GET /api/settings/mfa');
  });
});
