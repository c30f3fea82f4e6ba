import { cleanNotifications, Notifications } from '@mantine/notifications';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { followSessionLanguage } from '../../i18n/index.ts';
import { sessionStore } from '../../session/session-store.ts';
import { renderWithProviders } from '../../test-render.tsx';
import { LanguageSection } from './LanguageSection.tsx';

async function renderSection({ withNotifications = false } = {}) {
  sessionStore.signIn({ accessToken: 'access', refreshToken: 'refresh', role: 'admin', language: 'en' }, true);
  await renderWithProviders(<LanguageSection />, { beside: withNotifications && <Notifications /> });
  return followSessionLanguage();
}

describe('LanguageSection', () => {
  let stop = () => {};
  afterEach(() => {
    stop();
    vi.unstubAllGlobals();
    sessionStore.logout();
    cleanNotifications();
  });

  it('switches the screens to Spanish at once and stores the choice on the user', async () => {
    const fetch = vi.fn(async () => new Response(null, { status: 204 }));
    vi.stubGlobal('fetch', fetch);
    stop = await renderSection();
    expect(screen.getByRole('heading', { name: 'Language' })).toBeInTheDocument();
    await userEvent.click(screen.getByText('Español'));
    expect(await screen.findByRole('heading', { name: 'Idioma' })).toBeInTheDocument();
    expect(sessionStore.get().language).toBe('es');
    expect(localStorage.getItem('language')).toBe('es');
    expect(fetch).toHaveBeenCalledWith(
      '/api/settings/language',
      expect.objectContaining({ method: 'PUT', body: JSON.stringify({ language: 'es' }) }),
    );
  });

  it('says the language is saved in the language just chosen', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response(null, { status: 204 })),
    );
    stop = await renderSection({ withNotifications: true });
    await userEvent.click(screen.getByText('Español'));
    expect((await screen.findAllByText('Idioma guardado.')).length).toBeGreaterThan(0);
    expect(screen.queryByText('Language saved.')).not.toBeInTheDocument();
  });

  it('goes back to the stored language when the server does not keep the choice', async () => {
    const failure = { code: 'Default', message: 'down' };
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response(JSON.stringify(failure), { status: 500 })),
    );
    stop = await renderSection();
    await userEvent.click(screen.getByText('Español'));
    await waitFor(() => expect(sessionStore.get().language).toBe('en'));
    expect(await screen.findByRole('alert')).toHaveTextContent('An unexpected error occurred');
  });
});
