import type { Country } from '@rayo/shared';
import type { Db } from '../../db/database.ts';

const byName = new Intl.Collator('en').compare;

/**
 * Sorted here rather than in SQL: the database's collation follows the locale its cluster was
 * created with, and under `C` "Åland Islands" would come after "Zimbabwe".
 */
export async function listCountries(db: Db): Promise<Country[]> {
  const countries = await db.selectFrom('countries').select(['id', 'name', 'code']).execute();
  return countries.sort((a, b) => byName(a.name, b.name));
}

export async function findCountryByCode(db: Db, code: string): Promise<Country | undefined> {
  return db
    .selectFrom('countries')
    .select(['id', 'name', 'code'])
    .where('code', '=', code.toUpperCase())
    .executeTakeFirst();
}
