import type { Language } from '@rayo/shared';
import { useMutation } from '@tanstack/react-query';
import { apiCall } from './client.ts';

/** Stores the signed-in user's language, which every later sign-in answers. */
export function useSaveLanguage() {
  return useMutation({
    mutationFn: (language: Language) => apiCall('PUT /api/settings/language', { body: { language } }),
  });
}
