import { CurrencyListSchema } from '../payments.ts';
import { defineCalls } from './call.ts';

/** The currencies Rayo can price in: SAT and every fiat currency it has a rate for. */
export const rateCalls = defineCalls({
  'GET /api/currencies': {
    operationId: 'listCurrencies',
    tags: ['catalog'],
    summary: 'The currencies a BPT may price in: SAT, and each fiat currency with an exchange rate',
    answer: CurrencyListSchema,
    who: 'signed-in',
    refusals: [],
  },
});
