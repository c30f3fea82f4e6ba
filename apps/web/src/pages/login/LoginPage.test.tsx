import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LanguageSelect } from '../../components/LanguageSelect.tsx';
import { followSessionLanguage } from '../../i18n/index.ts';
import { sessionStore } from '../../session/session-store.ts';
import { renderWithProviders } from '../../test-render.tsx';
import { LoginPage, validateLogin } from './LoginPage.tsx';

describe('validateLogin', () => {
  it('follows SPEC §5', () => {
    expect(validateLogin('', '')).toEqual({ email: 'errors.missingEmail', password: 'errors.missingPassword' });
    expect(validateLogin('   ', 'x')).toEqual({ email: 'errors.missingEmail' });
    expect(validateLogin('nope', 'x')).toEqual({ email: 'errors.invalidEmail' });
    expect(validateLogin('a@b.co', 'x')).toEqual({});
  });
});

async function renderLogin(
  language: 'en' | 'es',
  { path = '/login', preloadScreensAt }: { path?: string; preloadScreensAt?: (path: string) => Promise<unknown> } = {},
) {
  await renderWithProviders(<LoginPage preloadScreensAt={preloadScreensAt} />, { language, route: path });
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('LoginPage', () => {
  it('shows the missing-field messages in English', async () => {
    await renderLogin('en');
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(screen.getByText('The email is missing')).toBeInTheDocument();
    expect(screen.getByText('The password is missing')).toBeInTheDocument();
  });

  it('shows an invalid email in Spanish', async () => {
    await renderLogin('es');
    await userEvent.type(screen.getByRole('textbox', { name: 'Correo electrónico' }), 'no-es-correo');
    await userEvent.click(screen.getByRole('button', { name: 'Iniciar sesión' }));
    expect(screen.getByText('El correo electrónico no es válido')).toBeInTheDocument();
  });

  it.each([
    ['/login', '/'],
    ['/login?redirect=%2Fecommerce%2Fshopify%3Fshop%3Da', '/ecommerce/shopify?shop=a'],
    ['/login?redirect=https%3A%2F%2Felsewhere.example', '/'],
  ])('at %s, starts loading the screens at %s while the password is checked', async (path, landing) => {
    // The sign-in request stays unanswered: the screens are asked for before it returns.
    vi.stubGlobal(
      'fetch',
      vi.fn(() => new Promise(() => {})),
    );
    const preloadScreensAt = vi.fn(() => Promise.resolve());
    await renderLogin('en', { path, preloadScreensAt });
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(preloadScreensAt).not.toHaveBeenCalled();
    await userEvent.type(screen.getByRole('textbox', { name: 'Email' }), 'ana@example.com');
    await userEvent.type(screen.getByLabelText('Password'), 'secret');
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(preloadScreensAt).toHaveBeenCalledExactlyOnceWith(landing);
  });
});

// Issue 26: Español picked on the login page turned back to English once sign-in answered the
// user's stored language.
describe('a language picked on the login page', () => {
  afterEach(() => {
    sessionStore.logout();
    localStorage.clear();
    sessionStore.reload();
  });

  it('outlasts the sign-in and is saved as the user’s language', async () => {
    const signedIn = { accessToken: 'access', refreshToken: 'refresh', role: 'back_office', language: 'en' };
    const fetch = vi.fn(async (url: string) =>
      url === '/api/auth/signin'
        ? new Response(JSON.stringify(signedIn), { headers: { 'content-type': 'application/json' } })
        : new Response(null, { status: 204 }),
    );
    vi.stubGlobal('fetch', fetch);
    const stopFollowing = followSessionLanguage();
    await renderWithProviders(
      <>
        <LanguageSelect />
        <LoginPage />
      </>,
      { route: '/login' },
    );
    await userEvent.click(screen.getByText('Español'));
    await userEvent.type(await screen.findByRole('textbox', { name: 'Correo electrónico' }), 'bo@example.com');
    await userEvent.type(screen.getByLabelText('Contraseña'), 'Secret-pass-1');
    await userEvent.click(screen.getByRole('button', { name: 'Iniciar sesión' }));
    await vi.waitFor(() => expect(sessionStore.get().accessToken).toBe('access'));
    expect(sessionStore.get().language).toBe('es');
    await vi.waitFor(() =>
      expect(fetch).toHaveBeenCalledWith(
        '/api/settings/language',
        expect.objectContaining({ method: 'PUT', body: JSON.stringify({ language: 'es' }) }),
      ),
    );
    stopFollowing();
  });

  it('is not saved when it is the user’s own already, and a sign-in without a pick answers the stored one', async () => {
    sessionStore.chooseLanguage('es');
    expect(
      sessionStore.signIn({ accessToken: 'a', refreshToken: 'r', role: 'back_office', language: 'es' }, false),
    ).toBeNull();
    sessionStore.logout();
    sessionStore.setLanguage('es');
    sessionStore.signIn({ accessToken: 'b', refreshToken: 'r', role: 'back_office', language: 'en' }, false);
    expect(sessionStore.get().language).toBe('en');
  });
});
