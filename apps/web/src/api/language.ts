import type { Language } from '@rayo/shared';
import { useMutation } from '@tanstack/react-query';
import { apiRequest } from './client.ts';

/** Stores the signed-in user's language, which every later sign-in answers. */
export function useSaveLanguage() {
  return useMutation({
    mutationFn: (language: Language) => apiRequest<void>('/settings/language', { method: 'PUT', body: { language } }),
  });
}
