import type { Country, Language } from '@rayo/shared';

/**
 * The countries with their names in `language`, sorted as that language sorts them. The API
 * holds the English short names (see docs/decisions/0010-countries.md); other languages take theirs
 * from the browser's CLDR data by ISO code, keeping the English name where it has none.
 */
export function localizedCountries(countries: readonly Country[], language: Language): Country[] {
  const names = new Intl.DisplayNames([language], { type: 'region', fallback: 'none' });
  const collator = new Intl.Collator(language);
  return countries
    .map((country) => ({ ...country, name: language === 'en' ? country.name : nameOf(names, country) }))
    .sort((a, b) => collator.compare(a.name, b.name));
}

function nameOf(names: Intl.DisplayNames, country: Country): string {
  try {
    return names.of(country.code) ?? country.name;
  } catch {
    // Not a well-formed region code.
    return country.name;
  }
}
