import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { sessionStore, storageKeys } from '../session/session-store.ts';
import { apiRequest } from './client.ts';

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/** A stand-in for the server: `/api/data` wants the access token `fresh`; the refresh answers `rotated`. */
function fakeServer(options: { onData?: () => void } = {}) {
  const calls: Array<{ path: string; body: unknown }> = [];
  const fetch = vi.fn(async (url: string, init: RequestInit) => {
    const path = new URL(url, 'http://rayo.test').pathname;
    calls.push({ path, body: init.body ? JSON.parse(String(init.body)) : undefined });
    if (path === '/api/auth/refresh-access-token') {
      return json(200, { accessToken: 'fresh', refreshToken: 'rotated' });
    }
    options.onData?.();
    const authorization = new Headers(init.headers).get('authorization');
    return authorization === 'Bearer fresh' ? json(200, { ok: true }) : json(401, { code: 'Unauthorized' });
  });
  vi.stubGlobal('fetch', fetch);
  return calls;
}

const getData = () => apiRequest('/data', z.object({ ok: z.boolean() }));

describe('refreshing the access token', () => {
  beforeEach(() => {
    sessionStore.signIn({ accessToken: 'expired', refreshToken: 'first', role: 'admin', language: 'en' }, true);
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    localStorage.clear();
    sessionStore.reload();
  });

  it('keeps the refresh token that replaces the one spent, and refreshes once for concurrent 401s', async () => {
    const calls = fakeServer();
    await Promise.all([getData(), getData()]);
    const refreshes = calls.filter((call) => call.path === '/api/auth/refresh-access-token');
    expect(refreshes).toEqual([{ path: '/api/auth/refresh-access-token', body: { refreshToken: 'first' } }]);
    expect(sessionStore.get()).toMatchObject({ accessToken: 'fresh', refreshToken: 'rotated' });
  });

  it('does not spend a refresh token again once another tab has replaced it', async () => {
    // Another tab refreshes while this tab's call is on its way and answered 401.
    const calls = fakeServer({
      onData: () => {
        localStorage.setItem(storageKeys.accessToken, 'fresh');
        localStorage.setItem(storageKeys.refreshToken, 'rotated');
      },
    });
    expect(await getData()).toEqual({ ok: true });
    expect(calls.map((call) => call.path)).toEqual(['/api/data', '/api/data']);
    expect(sessionStore.get()).toMatchObject({ accessToken: 'fresh', refreshToken: 'rotated' });
  });
});
