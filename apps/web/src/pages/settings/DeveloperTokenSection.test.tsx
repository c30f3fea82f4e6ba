import type { Role } from '@rayo/shared';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { sessionStore } from '../../session/session-store.ts';
import { renderWithProviders } from '../../test-render.tsx';
import { DeveloperTokenSection } from './DeveloperTokenSection.tsx';

type Answer = { status: number; body?: unknown };

/** Answers each `METHOD /api/path` from `routes`, and records what was sent. */
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
      if (!answer) throw new Error(`unexpected ${route}`);
      return new Response(answer.body === undefined ? null : JSON.stringify(answer.body), { status: answer.status });
    }),
  );
  return calls;
}

async function renderSection(role: Role, language: 'en' | 'es' = 'en') {
  sessionStore.signIn({ accessToken: 'access', refreshToken: 'refresh', role, language }, true);
  await renderWithProviders(<DeveloperTokenSection />, { language });
}

const listed = {
  id: '6f1c1a8e-0000-4000-8000-000000000001',
  name: 'Inventory sync',
  scope: 'read-only',
  createdAt: '2026-11-20T10:00:00.000Z',
  lastUsedAt: null,
  expiresAt: '2046-11-20T10:00:00.000Z',
};
const created = {
  ...listed,
  id: '6f1c1a8e-0000-4000-8000-000000000002',
  name: null,
  scope: 'checkouts',
  token: 'rayo_dev_secret',
};
const organization = { id: 'o', name: 'Shop', countryCode: 'GT', timeZone: 'America/Guatemala', currency: 'GTQ' };

describe('DeveloperTokenSection', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    sessionStore.logout();
  });

  it('lists the tokens, shows a new one once, and revokes one after asking', async () => {
    const calls = stubServer({
      'GET /api/settings/developer-tokens': [
        { status: 200, body: [listed] },
        { status: 200, body: [created, listed] },
        { status: 200, body: [created] },
      ],
      'GET /api/settings/mfa': { status: 200, body: { hasMfa: false } },
      'GET /api/organization/current': { status: 200, body: organization },
      'POST /api/settings/developer-tokens': { status: 201, body: created },
      [`DELETE /api/settings/developer-tokens/${listed.id}`]: { status: 204 },
    });
    await renderSection('admin');
    expect(await screen.findByText('Inventory sync')).toBeInTheDocument();
    expect(screen.getByText('Never')).toBeInTheDocument();
    expect(screen.getByRole('cell', { name: 'Read only' })).toBeInTheDocument();
    // The narrowest scope, what the shop integrations need, unless the admin picks another.
    expect(screen.getByRole('radio', { name: /^Store checkouts/ })).toBeChecked();

    await userEvent.click(screen.getByRole('button', { name: 'Create token' }));
    const dialog = await screen.findByRole('dialog', { name: 'Copy your new token' });
    expect(within(dialog).getByText('rayo_dev_secret')).toBeInTheDocument();
    expect(calls.find((c) => c.route === 'POST /api/settings/developer-tokens')?.body).toEqual({ scope: 'checkouts' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.queryByText('rayo_dev_secret')).not.toBeInTheDocument());
    expect(await screen.findByText('Unnamed')).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Revoke Inventory sync' }));
    const confirm = await screen.findByRole('dialog', { name: 'Revoke this token?' });
    await userEvent.click(within(confirm).getByRole('button', { name: 'Revoke' }));
    await waitFor(() => expect(screen.queryByText('Inventory sync')).not.toBeInTheDocument());
    expect(calls.map((c) => c.route)).toContain(`DELETE /api/settings/developer-tokens/${listed.id}`);
  });

  it("says 'Can't create token' when the server refuses, in English and Spanish", async () => {
    const refusal = { status: 409, body: { code: 'DeveloperTokenLimit', message: 'limit' } };
    stubServer({
      'GET /api/settings/developer-tokens': { status: 200, body: [] },
      'GET /api/settings/mfa': { status: 200, body: { hasMfa: false } },
      'GET /api/organization/current': { status: 200, body: organization },
      'POST /api/settings/developer-tokens': refusal,
    });
    await renderSection('admin', 'es');
    await userEvent.click(await screen.findByRole('button', { name: 'Crear token' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('No se pudo crear el token');
    expect(alert).toHaveTextContent('Llegaste al límite de tokens de desarrollador');
  });

  it('asks for the MFA code when MFA is on and sends it in the mfa-code header', async () => {
    const calls = stubServer({
      'GET /api/settings/developer-tokens': { status: 200, body: [] },
      'GET /api/settings/mfa': { status: 200, body: { hasMfa: true } },
      'GET /api/organization/current': { status: 200, body: organization },
      'POST /api/settings/developer-tokens': { status: 201, body: created },
    });
    await renderSection('admin');
    await userEvent.type(await screen.findByLabelText('Name (optional)'), 'Sync');
    await userEvent.click(screen.getByRole('radio', { name: /^Full access/ }));
    await waitFor(() => expect(calls.some((c) => c.route === 'GET /api/settings/mfa')).toBe(true));
    await userEvent.click(screen.getByRole('button', { name: 'Create token' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create a developer token' });
    await userEvent.type(within(dialog).getByRole('textbox'), '123456');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create token' }));
    await screen.findByRole('dialog', { name: 'Copy your new token' });
    const post = calls.find((c) => c.route === 'POST /api/settings/developer-tokens');
    expect(post?.headers['mfa-code']).toBe('123456');
    expect(post?.body).toEqual({ name: 'Sync', scope: 'full' });
  });

  it('is not shown to managers, and asks the server nothing', async () => {
    const calls = stubServer({});
    await renderSection('manager');
    expect(screen.queryByText('Developer token')).not.toBeInTheDocument();
    expect(calls).toEqual([]);
  });
});
