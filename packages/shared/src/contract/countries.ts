import { CountryListSchema } from '../catalog.ts';
import { defineCalls } from './call.ts';

/** The countries an organization may be in. */
export const countryCalls = defineCalls({
  'GET /api/countries': {
    operationId: 'listCountries',
    tags: ['catalog'],
    summary: 'The countries an organization may be in, by name',
    description:
      'Sign-up and onboarding read it before anyone is signed in; it changes only with a release, so the answer may be cached for an hour.',
    answer: CountryListSchema,
    who: 'public',
    refusals: [],
  },
});
