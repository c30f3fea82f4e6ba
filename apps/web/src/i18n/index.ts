import { DEFAULT_LANGUAGE, type Language } from '@rayo/shared';
import i18n, { type BackendModule, type ResourceKey } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { sessionStore } from '../session/session-store.ts';
import en from './en.json';

/**
 * English, the fallback, is part of the app; Spanish is fetched the first time it is needed, so
 * a visitor downloads the one language they read.
 */
const bundles: Record<Language, () => Promise<ResourceKey>> = {
  en: async () => en,
  es: () => import('./es.json').then((module) => module.default),
};

const onDemand: BackendModule = {
  type: 'backend',
  init() {},
  read(language, _namespace, callback) {
    const load = bundles[language as Language];
    if (!load) return callback(null, {});
    load().then(
      (bundle) => callback(null, bundle),
      (error: unknown) => callback(error instanceof Error ? error : new Error(String(error)), null),
    );
  },
};

let initialized: Promise<unknown> | undefined;

export function initI18n(language: Language = sessionStore.get().language): typeof i18n {
  initialized ??= i18n
    .use(onDemand)
    .use(initReactI18next)
    .init({
      resources: { en: { translation: en } },
      partialBundledLanguages: true,
      lng: language,
      fallbackLng: DEFAULT_LANGUAGE,
      interpolation: { escapeValue: false },
    });
  return i18n;
}

/** Resolves once i18next has started with the session's language loaded. */
export async function i18nReady(): Promise<void> {
  initI18n();
  await initialized;
}

/** Keeps i18next and the document in step with the language stored in the session. */
export function followSessionLanguage(): () => void {
  const apply = () => {
    const { language } = sessionStore.get();
    document.documentElement.lang = language;
    if (i18n.language !== language) void i18n.changeLanguage(language);
  };
  apply();
  return sessionStore.subscribe(apply);
}
