import { DEFAULT_LANGUAGE, isRole, type Language, languages, type Role } from '@rayo/shared';

/** SPEC §3 "Auth session": every part is kept in localStorage under these keys. */
export const storageKeys = {
  accessToken: 'accessToken',
  refreshToken: 'refreshToken',
  role: 'role',
  language: 'language',
  remember: 'remember',
} as const;

export type Session = {
  accessToken: string | null;
  refreshToken: string | null;
  role: Role | null;
  language: Language;
  remember: boolean;
};

/**
 * A language picked with the switch while signed out, which the next sign-in keeps: stored, so a
 * reload of the sign-in page does not lose it, and apart from `language`, which keeps the last
 * user's language after a logout and must not be pressed on the next user as a choice.
 */
const languageChosenSignedOutKey = 'languageChosen';

const listeners = new Set<() => void>();
/** The language of the organization whose public page is open, offered by that page. */
let organizationLanguage: Language | null = null;
let snapshot: Session = read();

function isLanguage(value: string | null | undefined): value is Language {
  return languages.includes(value as Language);
}

/** The first of the browser's preferred languages that the app is written in (es-MX reads as es). */
export function browserLanguage(): Language | null {
  if (typeof navigator === 'undefined') return null;
  const preferred = navigator.languages?.length ? navigator.languages : [navigator.language];
  for (const tag of preferred) {
    const base = tag?.toLowerCase().split('-')[0];
    if (isLanguage(base)) return base;
  }
  return null;
}

/**
 * The language chosen (with the switch, or answered by sign-in) wins; before any choice, the
 * browser's, then the organization's on its public pages, then the default.
 */
function readLanguage(): Language {
  const stored = localStorage.getItem(storageKeys.language);
  if (isLanguage(stored)) return stored;
  return browserLanguage() ?? organizationLanguage ?? DEFAULT_LANGUAGE;
}

function read(): Session {
  const role = localStorage.getItem(storageKeys.role);
  return {
    accessToken: localStorage.getItem(storageKeys.accessToken),
    refreshToken: localStorage.getItem(storageKeys.refreshToken),
    role: isRole(role) ? role : null,
    language: readLanguage(),
    remember: localStorage.getItem(storageKeys.remember) === 'true',
  };
}

function write(key: string, value: string | null): void {
  if (value === null) localStorage.removeItem(key);
  else localStorage.setItem(key, value);
}

function changed(): void {
  snapshot = read();
  for (const listener of listeners) listener();
}

export const sessionStore = {
  get: (): Session => snapshot,
  subscribe(listener: () => void): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  /** Re-reads storage, e.g. after another tab changed it. */
  reload: changed,

  /**
   * SPEC §4: the access token is stored; the refresh token only when remember is on. The
   * language is the one picked on the way in, if any, else the user's own that sign-in answers;
   * a picked one that differs from the user's is returned, for the caller to save as theirs.
   */
  signIn(
    result: { accessToken: string; refreshToken: string; role: Role; language: Language },
    remember: boolean,
  ): Language | null {
    const stored = localStorage.getItem(languageChosenSignedOutKey);
    const chosen = isLanguage(stored) ? stored : null;
    write(languageChosenSignedOutKey, null);
    write(storageKeys.accessToken, result.accessToken);
    write(storageKeys.refreshToken, remember ? result.refreshToken : null);
    write(storageKeys.role, result.role);
    write(storageKeys.language, chosen ?? result.language);
    write(storageKeys.remember, String(remember));
    changed();
    return chosen !== null && chosen !== result.language ? chosen : null;
  },
  replaceAccessToken(accessToken: string) {
    write(storageKeys.accessToken, accessToken);
    changed();
  },
  /**
   * After a refresh: the refresh token works once, so the one that replaced it is kept. A
   * developer token is not replaced, so an answer without one keeps the stored token.
   */
  replaceTokens(tokens: { accessToken: string; refreshToken?: string }) {
    write(storageKeys.accessToken, tokens.accessToken);
    if (tokens.refreshToken !== undefined) write(storageKeys.refreshToken, tokens.refreshToken);
    changed();
  },
  setLanguage(language: Language) {
    write(storageKeys.language, language);
    changed();
  },
  /** The language switch: picked while signed out, the choice also outlasts the next sign-in. */
  chooseLanguage(language: Language) {
    if (!snapshot.accessToken) write(languageChosenSignedOutKey, language);
    write(storageKeys.language, language);
    changed();
  },
  /** A public page's organization: its language applies only while nothing better is known. */
  offerOrganizationLanguage(language: Language) {
    if (organizationLanguage === language) return;
    organizationLanguage = language;
    changed();
  },
  /** SPEC §4: clears the tokens; role, language and remember stay. */
  logout() {
    write(storageKeys.accessToken, null);
    write(storageKeys.refreshToken, null);
    changed();
  },
};

if (typeof window !== 'undefined') {
  window.addEventListener('storage', (event) => {
    if (event.key === null || Object.values(storageKeys).includes(event.key as never)) changed();
  });
}
