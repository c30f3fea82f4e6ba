import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { sessionStore } from '../../session/session-store.ts';
import { renderWithProviders } from '../../test-render.tsx';
import { validatePasswordChange } from './password-change.ts';
import { SettingsPage } from './SettingsPage.tsx';

describe('validatePasswordChange', () => {
  it('follows SPEC §5', () => {
    expect(validatePasswordChange({ currentPassword: '', newPassword: '', confirmation: '' })).toEqual({
      currentPassword: 'errors.missingPassword',
      newPassword: 'errors.missingPassword',
    });
    expect(validatePasswordChange({ currentPassword: 'x', newPassword: 'weakpass', confirmation: 'weakpass' })).toEqual(
      {
        newPassword: 'errors.invalidPassword',
      },
    );
    expect(
      validatePasswordChange({ currentPassword: 'x', newPassword: 'Strong-pass-1', confirmation: 'Strong-pass-2' }),
    ).toEqual({ confirmation: 'errors.passwordsDontMatch' });
    expect(
      validatePasswordChange({ currentPassword: 'x', newPassword: 'Strong-pass-1', confirmation: 'Strong-pass-1' }),
    ).toEqual({});
  });
});

async function renderSettings(language: 'en' | 'es', path = '/settings') {
  await renderWithProviders(
    <>
      <Routes>
        <Route path="/settings/:section?" element={<SettingsPage />} />
      </Routes>
    </>,
    { language, route: path },
  );
}

describe('SettingsPage password section', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    sessionStore.logout();
  });

  it('shows the SPEC messages in English without calling the server', async () => {
    const fetch = vi.fn();
    vi.stubGlobal('fetch', fetch);
    await renderSettings('en');
    await userEvent.click(screen.getByRole('button', { name: 'Change password' }));
    expect(screen.getAllByText('The password is missing')).toHaveLength(2);
    await userEvent.type(screen.getByLabelText('Current password'), 'anything');
    await userEvent.type(screen.getByLabelText('New password'), 'weakpass');
    await userEvent.click(screen.getByRole('button', { name: 'Change password' }));
    expect(screen.getByText('The password did not match the requirements')).toBeInTheDocument();
    expect(screen.getByText("Passwords don't match.")).toBeInTheDocument();
    // The MFA section reads its status; the password form itself calls nothing.
    expect(fetch).not.toHaveBeenCalledWith('/api/settings/password', expect.anything());
  });

  it('goes on with the access token the change answers, and asks to revoke developer tokens if ticked', async () => {
    sessionStore.signIn({ accessToken: 'before', refreshToken: 'mine', role: 'admin', language: 'en' }, true);
    const fetch = vi.fn(async (url: string) =>
      url === '/api/settings/password'
        ? new Response(JSON.stringify({ accessToken: 'after' }), { headers: { 'content-type': 'application/json' } })
        : new Response(JSON.stringify({ hasMfa: false }), { headers: { 'content-type': 'application/json' } }),
    );
    vi.stubGlobal('fetch', fetch);
    await renderSettings('en');
    await userEvent.type(screen.getByLabelText('Current password'), 'Old-pass-1!');
    await userEvent.type(screen.getByLabelText('New password'), 'Strong-pass-1');
    await userEvent.type(screen.getByLabelText('Confirm new password'), 'Strong-pass-1');
    await userEvent.click(screen.getByRole('checkbox', { name: 'Also revoke the developer tokens I made' }));
    await userEvent.click(screen.getByRole('button', { name: 'Change password' }));
    await waitFor(() => expect(sessionStore.get().accessToken).toBe('after'));
    const sent = fetch.mock.calls.find(([url]) => url === '/api/settings/password') as unknown as [string, RequestInit];
    expect(JSON.parse(String(sent[1].body))).toEqual({
      currentPassword: 'Old-pass-1!',
      newPassword: 'Strong-pass-1',
      revokeDeveloperTokens: true,
      refreshToken: 'mine',
    });
  });

  it('shows a mismatched confirmation in Spanish', async () => {
    await renderSettings('es');
    await userEvent.type(screen.getByLabelText('Contraseña actual'), 'anything');
    await userEvent.type(screen.getByLabelText('Nueva contraseña'), 'Strong-pass-1');
    await userEvent.type(screen.getByLabelText('Confirma la nueva contraseña'), 'Strong-pass-2');
    await userEvent.click(screen.getByRole('button', { name: 'Cambiar contraseña' }));
    expect(screen.getByText('Las contraseñas no coinciden.')).toBeInTheDocument();
  });
});

// Issue 26: back office had no Settings at all; it gets the sections about the person only.
describe('SettingsPage for back office', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    sessionStore.logout();
  });

  const signInAsBackOffice = () => {
    sessionStore.signIn({ accessToken: 'bo', refreshToken: 'r', role: 'back_office', language: 'en' }, false);
    vi.stubGlobal(
      'fetch',
      vi.fn(
        async () =>
          new Response(JSON.stringify({ hasMfa: false }), { headers: { 'content-type': 'application/json' } }),
      ),
    );
  };
  const sectionLinks = () =>
    Array.from(screen.getAllByRole('navigation')[0]?.querySelectorAll('a') ?? [], (link) => link.textContent);

  it('lists Profile and Security only, with the password and language forms', async () => {
    signInAsBackOffice();
    await renderSettings('en');
    expect(sectionLinks()).toEqual(['Profile', 'Security']);
    expect(screen.getByRole('heading', { name: 'Password' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Language' })).toBeInTheDocument();
    expect(screen.queryByRole('checkbox', { name: 'Also revoke the developer tokens I made' })).toBeNull();
  });

  it('opens MFA at /settings/security, and sends an organization section back to /settings', async () => {
    signInAsBackOffice();
    await renderSettings('es', '/settings/security');
    expect(await screen.findByRole('switch')).toBeInTheDocument();
    expect(sectionLinks()).toEqual(['Perfil', 'Seguridad']);
    cleanup();
    await renderSettings('en', '/settings/payouts');
    expect(screen.getByRole('heading', { name: 'Password' })).toBeInTheDocument();
  });
});
