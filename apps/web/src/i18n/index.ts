import { DEFAULT_LANGUAGE, type Language } from '@rayo/shared';
import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import { sessionStore } from '../session/session-store.ts';
import en from './en.json';
import es from './es.json';

export const resources = { en: { translation: en }, es: { translation: es } } as const;

export function initI18n(language: Language = sessionStore.get().language): typeof i18n {
  if (!i18n.isInitialized) {
    void i18n.use(initReactI18next).init({
      resources,
      lng: language,
      fallbackLng: DEFAULT_LANGUAGE,
      interpolation: { escapeValue: false },
    });
  }
  return i18n;
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
