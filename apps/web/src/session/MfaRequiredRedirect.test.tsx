import { act, cleanup, screen, waitFor } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../test-render.tsx';
import { MfaRequiredRedirect } from './MfaRequiredRedirect.tsx';
import { sessionStore } from './session-store.ts';

async function renderAt(path: string, status: { hasMfa: boolean; required: boolean }) {
  const fetch = vi.fn(async () => Response.json(status));
  vi.stubGlobal('fetch', fetch);
  sessionStore.signIn({ accessToken: 'access', refreshToken: 'refresh', role: 'back_office', language: 'en' }, false);
  await renderWithProviders(
    <>
      <MfaRequiredRedirect />
      <Routes>
        <Route path="/back-office" element={<p>Back office</p>} />
        <Route path="/settings/security" element={<p>Security</p>} />
      </Routes>
    </>,
    { route: path },
  );
  return fetch;
}

describe('MfaRequiredRedirect', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    sessionStore.logout();
  });

  it('sends back office without MFA to Settings → Security when the platform requires it', async () => {
    await renderAt('/back-office', { hasMfa: false, required: true });
    expect(await screen.findByText('Security')).toBeInTheDocument();
    expect(screen.queryByText('Back office')).not.toBeInTheDocument();
  });

  it('lets back office through once MFA is on, or when it is not required', async () => {
    for (const status of [
      { hasMfa: true, required: true },
      { hasMfa: false, required: false },
    ]) {
      const fetch = await renderAt('/back-office', status);
      await waitFor(() => expect(fetch).toHaveBeenCalled());
      // The answer is read before the next check: still on back office.
      await waitFor(() => expect(fetch.mock.results[0]?.type).toBe('return'));
      await act(async () => {});
      expect(screen.getByText('Back office')).toBeInTheDocument();
      expect(screen.queryByText('Security')).not.toBeInTheDocument();
      cleanup();
      vi.unstubAllGlobals();
    }
  });
});
