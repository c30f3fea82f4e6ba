import type { Country } from '@rayo/shared';
import type { Db } from '../../db/database.ts';

export async function selectCountries(db: Db): Promise<Country[]> {
  return db.selectFrom('countries').select(['id', 'name', 'code']).execute();
}

export async function findCountryByCode(db: Db, code: string): Promise<Country | undefined> {
  return db
    .selectFrom('countries')
    .select(['id', 'name', 'code'])
    .where('code', '=', code.toUpperCase())
    .executeTakeFirst();
}
