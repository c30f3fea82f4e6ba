import type { Language } from '@rayo/shared';
import { useEffect } from 'react';
import { sessionStore } from './session-store.ts';

/** A public page offers its organization's language, used when the visitor's browser asks for neither of ours. */
export function useOrganizationLanguage(language: Language | undefined): void {
  useEffect(() => {
    if (language) sessionStore.offerOrganizationLanguage(language);
  }, [language]);
}
