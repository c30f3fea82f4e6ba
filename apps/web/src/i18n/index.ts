import { DEFAULT_LANGUAGE, type Language } from '@rayo/shared';
import { useMemo, useSyncExternalStore } from 'react';
import { sessionStore } from '../session/session-store.ts';
import en from './en.json';

/**
 * The app's texts, by language: nested keys (`home.metrics.title`), `{{name}}` placeholders and
 * plural forms as `key_one` / `key_other`, chosen with the language's plural rules for the `count`
 * value. Everything the app asks of a translation library, in a page of code (see
 * docs/decisions/0042-texts-without-a-library.md).
 */

type Texts = { [key: string]: string | Texts };
/** A value left undefined (a dialog's text while nothing is chosen) reads as nothing. */
export type TranslationValues = Record<string, string | number | undefined>;
export type TFunction = (key: string, values?: TranslationValues) => string;

/**
 * English, the fallback, is part of the app; Spanish is fetched the first time it is needed, so
 * a visitor downloads the one language they read.
 */
const bundles: Record<Language, () => Promise<Texts>> = {
  en: async () => en,
  es: () => import('./es.json').then((module) => module.default),
};

const loaded: Partial<Record<Language, Texts>> = { en };
let current: Language = DEFAULT_LANGUAGE;
const listeners = new Set<() => void>();
const pluralRules = new Map<Language, Intl.PluralRules>();

function lookup(texts: Texts | undefined, key: string): string | undefined {
  let node: string | Texts | undefined = texts;
  for (const part of key.split('.')) {
    if (node === undefined || typeof node === 'string') return undefined;
    node = node[part];
  }
  return typeof node === 'string' ? node : undefined;
}

function pluralOf(language: Language, count: number): string {
  let rules = pluralRules.get(language);
  if (!rules) {
    rules = new Intl.PluralRules(language);
    pluralRules.set(language, rules);
  }
  return rules.select(count);
}

/** The text of a key in a language, falling back to English, then to the key itself. */
function translate(language: Language, key: string, values?: TranslationValues): string {
  const count = values?.count;
  for (const texts of [loaded[language], loaded[DEFAULT_LANGUAGE]]) {
    const forms = typeof count === 'number' ? [`${key}_${pluralOf(language, count)}`, `${key}_other`, key] : [key];
    for (const form of forms) {
      const text = lookup(texts, form);
      if (text !== undefined) {
        if (!values) return text;
        return text.replace(/\{\{\s*(\w+)\s*\}\}/g, (placeholder, name: string) =>
          name in values ? String(values[name] ?? '') : placeholder,
        );
      }
    }
  }
  return key;
}

/** The language asked for last: a slower load of one asked for earlier must not win. */
let requested: Language = DEFAULT_LANGUAGE;

async function changeLanguage(language: Language): Promise<void> {
  requested = language;
  loaded[language] ??= await bundles[language]();
  if (requested !== language || current === language) return;
  current = language;
  for (const listener of listeners) listener();
}

/**
 * A text in a given language, once its texts are loaded: for a message about a change of language,
 * which must read in the language just chosen rather than the one its screen was rendered in.
 */
async function textIn(language: Language, key: string, values?: TranslationValues): Promise<string> {
  loaded[language] ??= await bundles[language]();
  return translate(language, key, values);
}

/** The texts outside React (tests, and code that is handed a `t`). */
export const i18n = {
  get language(): Language {
    return current;
  },
  t: (key: string, values?: TranslationValues): string => translate(current, key, values),
  changeLanguage,
  textIn,
};

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The current language's `t`, which changes, and re-renders the caller, when the language does. */
export function useTranslation(): { t: TFunction; i18n: typeof i18n } {
  const language = useSyncExternalStore(subscribe, () => current);
  const t = useMemo<TFunction>(() => (key, values) => translate(language, key, values), [language]);
  return { t, i18n };
}

let initialized: Promise<void> | undefined;

export function initI18n(language: Language = sessionStore.get().language): typeof i18n {
  initialized ??= changeLanguage(language);
  return i18n;
}

/** Resolves once the session's language is loaded. */
export async function i18nReady(): Promise<void> {
  initI18n();
  await initialized;
}

/** Keeps the texts and the document in step with the language stored in the session. */
export function followSessionLanguage(): () => void {
  const apply = () => {
    const { language } = sessionStore.get();
    document.documentElement.lang = language;
    if (current !== language) void changeLanguage(language);
  };
  apply();
  return sessionStore.subscribe(apply);
}
