import type { Country } from '@rayo/shared';
import { describe, expect, it } from 'vitest';
import { localizedCountries } from './country-names.ts';

const countries: Country[] = [
  { id: 1, name: 'Germany', code: 'DE' },
  { id: 2, name: 'Guatemala', code: 'GT' },
  { id: 3, name: 'Mexico', code: 'MX' },
  { id: 4, name: 'Spain', code: 'ES' },
  { id: 5, name: 'United States of America', code: 'US' },
];

describe('localizedCountries', () => {
  it('names and sorts the countries in Spanish for es, keeping ids and codes', () => {
    expect(localizedCountries(countries, 'es')).toEqual([
      { id: 1, name: 'Alemania', code: 'DE' },
      { id: 4, name: 'España', code: 'ES' },
      { id: 5, name: 'Estados Unidos', code: 'US' },
      { id: 2, name: 'Guatemala', code: 'GT' },
      { id: 3, name: 'México', code: 'MX' },
    ]);
  });

  it("keeps the API's English names for en", () => {
    expect(localizedCountries(countries, 'en').map((c) => c.name)).toEqual([
      'Germany',
      'Guatemala',
      'Mexico',
      'Spain',
      'United States of America',
    ]);
  });

  it('keeps the English name of a code the browser does not know', () => {
    expect(localizedCountries([{ id: 9, name: 'Nowhere', code: 'QZ' }], 'es')).toEqual([
      { id: 9, name: 'Nowhere', code: 'QZ' },
    ]);
  });
});
