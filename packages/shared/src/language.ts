import { z } from 'zod';
import { LanguageSchema } from './auth.ts';

/** Settings → language: the signed-in user's own, answered again at every sign-in (SPEC §7). */
export const UpdateLanguageRequestSchema = z.object({ language: LanguageSchema });
export type UpdateLanguageRequest = z.infer<typeof UpdateLanguageRequestSchema>;
