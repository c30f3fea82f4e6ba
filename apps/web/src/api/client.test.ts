import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { sessionStore, storageKeys } from '../session/session-store.ts';
import { apiRequest, callUrl } from './client.ts';
import { EARLY_REQUESTS_KEY } from './early-requests.ts';

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

const getData = () => apiRequest<{ ok: boolean }>('/data');

describe('callUrl', () => {
  it('fills the path and sends only the query values there are', () => {
    expect(
      callUrl('GET /api/dashboard/transactions/csv', {
        query: { start: 10, end: undefined, account: 'all', source: 'terminal' },
      }),
    ).toBe('/api/dashboard/transactions/csv?start=10&account=all&source=terminal');
    expect(callUrl('GET /api/public/receipts/:token/pdf', { params: { token: 'a/b' }, query: {} })).toBe(
      '/api/public/receipts/a%2Fb/pdf',
    );
  });
});

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

describe('a call the page’s head started early', () => {
  const early = (token: string, response: Promise<Response>) => {
    Object.assign(window, { [EARLY_REQUESTS_KEY]: { '/data': { token, response } } });
  };
  beforeEach(() => {
    sessionStore.signIn({ accessToken: 'fresh', refreshToken: 'first', role: 'admin', language: 'en' }, true);
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    Reflect.deleteProperty(window, EARLY_REQUESTS_KEY);
    localStorage.clear();
    sessionStore.reload();
  });

  it('is answered from the head’s request once, then asked again', async () => {
    const calls = fakeServer();
    early('fresh', Promise.resolve(json(200, { ok: false })));
    expect(await getData()).toEqual({ ok: false });
    expect(calls).toEqual([]);
    expect(await getData()).toEqual({ ok: true });
    expect(calls.map((call) => call.path)).toEqual(['/api/data']);
  });

  it('is asked again when the head’s request failed or went with another token', async () => {
    const calls = fakeServer();
    early('fresh', Promise.reject(new TypeError('Failed to fetch')));
    expect(await getData()).toEqual({ ok: true });
    early('expired', Promise.resolve(json(200, { ok: false })));
    expect(await getData()).toEqual({ ok: true });
    expect(calls.map((call) => call.path)).toEqual(['/api/data', '/api/data']);
  });

  it('goes through the same refresh as any call when it was answered 401', async () => {
    sessionStore.signIn({ accessToken: 'expired', refreshToken: 'first', role: 'admin', language: 'en' }, true);
    const calls = fakeServer();
    early('expired', Promise.resolve(json(401, { code: 'Unauthorized' })));
    expect(await getData()).toEqual({ ok: true });
    expect(calls.map((call) => call.path)).toEqual(['/api/auth/refresh-access-token', '/api/data']);
  });
});
