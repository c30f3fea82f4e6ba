import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { sessionStore } from '../../session/session-store.ts';
import { renderWithProviders } from '../../test-render.tsx';
import { LoginPage } from './LoginPage.tsx';

const session = { accessToken: 'access', refreshToken: 'refresh', role: 'admin', language: 'en' };

async function renderLogin() {
  await renderWithProviders(<LoginPage />, { route: '/' });
}

function answer(status: number, body: unknown) {
  return new Response(JSON.stringify(body), { status });
}

describe('LoginPage with MFA', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    sessionStore.logout();
  });

  it('asks for the code after the password, and takes a recovery code instead', async () => {
    const fetch = vi
      .fn()
      .mockResolvedValueOnce(answer(200, { mfaRequired: true, mfaToken: 'challenge' }))
      .mockResolvedValueOnce(answer(400, { code: 'WrongMfaCode', message: 'no' }))
      .mockResolvedValueOnce(answer(200, session));
    vi.stubGlobal('fetch', fetch);
    await renderLogin();
    await userEvent.type(screen.getByRole('textbox', { name: 'Email' }), 'a@b.co');
    await userEvent.type(screen.getByLabelText('Password'), 'Secret-pass-1');
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));

    expect(await screen.findByRole('heading', { name: 'Two-step verification' })).toBeInTheDocument();
    expect(sessionStore.get().accessToken).toBeNull();
    await userEvent.type(screen.getByLabelText('Authentication code'), '123456');
    await userEvent.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByText('The code is not correct')).toBeInTheDocument();
    // "Remember me" (off here) reaches the step that answers the session.
    expect(JSON.parse(fetch.mock.calls[0]?.[1].body)).toMatchObject({ remember: false });
    expect(JSON.parse(fetch.mock.calls[1]?.[1].body)).toEqual({
      mfaToken: 'challenge',
      code: '123456',
      remember: false,
    });

    await userEvent.click(screen.getByRole('button', { name: 'Use a recovery code' }));
    await userEvent.type(screen.getByLabelText('Recovery code'), 'abcd-efgh-ijkl-mnop');
    await userEvent.click(screen.getByRole('button', { name: 'Verify' }));
    await vi.waitFor(() => expect(sessionStore.get().accessToken).toBe('access'));
    expect(fetch.mock.calls[2]?.[0]).toBe('/api/settings/mfa/recover');
    expect(JSON.parse(fetch.mock.calls[2]?.[1].body)).toEqual({
      mfaToken: 'challenge',
      recoveryCode: 'abcd-efgh-ijkl-mnop',
      remember: false,
    });
  });

  it('goes back to the password step when the challenge has lapsed', async () => {
    vi.stubGlobal(
      'fetch',
      vi
        .fn()
        .mockResolvedValueOnce(answer(200, { mfaRequired: true, mfaToken: 'challenge' }))
        .mockResolvedValueOnce(answer(401, { code: 'MfaChallengeExpired', message: 'late' })),
    );
    await renderLogin();
    await userEvent.type(screen.getByRole('textbox', { name: 'Email' }), 'a@b.co');
    await userEvent.type(screen.getByLabelText('Password'), 'Secret-pass-1');
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    await userEvent.type(await screen.findByLabelText('Authentication code'), '123456');
    await userEvent.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByText('The sign-in took too long. Sign in again.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Sign in' })).toBeInTheDocument();
  });
});
