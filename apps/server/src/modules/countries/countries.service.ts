import type { Country } from '@rayo/shared';
import type { Db } from '../../db/database.ts';
import { selectCountries } from './countries.repo.ts';

const byName = new Intl.Collator('en').compare;

/**
 * Sorted here rather than in SQL: the database's collation follows the locale its cluster was
 * created with, and under `C` "Åland Islands" would come after "Zimbabwe".
 */
export async function listCountries(db: Db): Promise<Country[]> {
  return (await selectCountries(db)).sort((a, b) => byName(a.name, b.name));
}
