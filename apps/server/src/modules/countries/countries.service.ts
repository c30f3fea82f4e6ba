import type { Country } from '@rayo/shared';
import type { Db } from '../../db/database.ts';
import { findCountryByCode, selectCountries } from './countries.repo.ts';

const byName = new Intl.Collator('en').compare;

/**
 * Sorted here rather than in SQL: the database's collation follows the locale its cluster was
 * created with, and under `C` "Åland Islands" would come after "Zimbabwe".
 */
export async function listCountries(db: Db): Promise<Country[]> {
  return (await selectCountries(db)).sort((a, b) => byName(a.name, b.name));
}

/** The country of an ISO 3166-1 alpha-2 code; undefined for a code the list does not have. */
export async function findCountry(db: Db, code: string): Promise<Country | undefined> {
  return findCountryByCode(db, code);
}
