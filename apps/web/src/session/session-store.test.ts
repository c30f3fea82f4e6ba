import { afterEach, describe, expect, it, vi } from 'vitest';
import { sessionStore, storageKeys } from './session-store.ts';

const result = { accessToken: 'access', refreshToken: 'refresh', role: 'admin', language: 'es' } as const;

describe('sessionStore', () => {
  it('with remember on keeps both tokens', () => {
    sessionStore.signIn(result, true);
    expect(localStorage.getItem(storageKeys.refreshToken)).toBe('refresh');
    expect(sessionStore.get()).toEqual({ ...result, remember: true });
  });

  it('with remember off keeps no refresh token', () => {
    localStorage.setItem(storageKeys.refreshToken, 'left over');
    sessionStore.signIn(result, false);
    expect(localStorage.getItem(storageKeys.refreshToken)).toBeNull();
    expect(sessionStore.get().remember).toBe(false);
  });

  it('logout clears the tokens and keeps role, language and remember', () => {
    sessionStore.signIn(result, true);
    sessionStore.logout();
    expect({ ...localStorage }).toEqual({ role: 'admin', language: 'es', remember: 'true' });
    expect(sessionStore.get()).toEqual({
      accessToken: null,
      refreshToken: null,
      role: 'admin',
      language: 'es',
      remember: true,
    });
  });

  it('tells subscribers about every change', () => {
    let calls = 0;
    const unsubscribe = sessionStore.subscribe(() => {
      calls += 1;
    });
    sessionStore.setLanguage('en');
    sessionStore.replaceAccessToken('new');
    unsubscribe();
    sessionStore.logout();
    expect(calls).toBe(2);
    expect(sessionStore.get().language).toBe('en');
  });

  it('ignores a stored role it does not know and defaults the language to en', () => {
    localStorage.setItem(storageKeys.role, 'owner');
    localStorage.setItem(storageKeys.language, 'fr');
    sessionStore.reload();
    expect(sessionStore.get()).toMatchObject({ role: null, language: 'en' });
  });

  it('keeps a language picked while signed out through a reload of the page, for the next sign-in', async () => {
    sessionStore.logout();
    sessionStore.chooseLanguage('es');
    vi.resetModules();
    const reloaded = (await import('./session-store.ts')).sessionStore;
    expect(reloaded.get().language).toBe('es');
    expect(reloaded.signIn({ ...result, language: 'en' }, false)).toBe('es');
    expect(reloaded.get().language).toBe('es');
    // Taken by that sign-in: the next user's own language is not overridden by it.
    reloaded.logout();
    reloaded.signIn({ ...result, language: 'en' }, false);
    expect(reloaded.get().language).toBe('en');
  });

  describe('before any language is chosen', () => {
    const browserPrefers = (...tags: string[]) => vi.spyOn(navigator, 'languages', 'get').mockReturnValue(tags);
    afterEach(() => {
      vi.restoreAllMocks();
      localStorage.clear();
      sessionStore.reload();
    });

    it("reads in the browser's language, es-MX as es", () => {
      localStorage.removeItem(storageKeys.language);
      browserPrefers('es-MX', 'en');
      sessionStore.reload();
      expect(sessionStore.get().language).toBe('es');
    });

    it("takes the organization's when the browser asks for neither, and a choice wins over both", () => {
      localStorage.removeItem(storageKeys.language);
      browserPrefers('fr-FR', 'de');
      sessionStore.offerOrganizationLanguage('es');
      expect(sessionStore.get().language).toBe('es');
      sessionStore.setLanguage('en');
      expect(sessionStore.get().language).toBe('en');
    });

    it("keeps the browser's language over the organization's", () => {
      localStorage.removeItem(storageKeys.language);
      browserPrefers('en-GB');
      sessionStore.offerOrganizationLanguage('es');
      sessionStore.reload();
      expect(sessionStore.get().language).toBe('en');
    });
  });
});
