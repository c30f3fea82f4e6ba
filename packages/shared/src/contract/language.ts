import { UpdateLanguageRequestSchema } from '../language.ts';
import { defineCalls } from './call.ts';

/** The signed-in user's own language (SPEC §2 Settings). */
export const languageCalls = defineCalls({
  'PUT /api/settings/language': {
    operationId: 'setLanguage',
    tags: ['settings'],
    summary: "Sets the caller's language, which sign-in answers from then on",
    body: UpdateLanguageRequestSchema,
    who: 'signed-in',
    refusals: [],
  },
});
