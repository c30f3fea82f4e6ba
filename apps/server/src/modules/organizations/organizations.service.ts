import { AppError, type Language } from '@rayo/shared';
import type { Db } from '../../db/database.ts';
import type { Organization } from '../../db/schema.ts';
import { defaultTimeZoneOf } from '../../domain/time-zone.ts';
import { findCountryByCode } from '../countries/countries.repo.ts';
import { insertOrganization } from './organizations.repo.ts';

export async function createOrganization(
  db: Db,
  input: { name: string; countryCode: string; language: Language; currency?: string },
): Promise<Organization> {
  const country = await findCountryByCode(db, input.countryCode);
  if (!country) throw new AppError('InvalidInput', `Unknown country code ${input.countryCode}`);
  return insertOrganization(db, {
    name: input.name,
    country_id: country.id,
    language: input.language,
    time_zone: defaultTimeZoneOf(country.code),
    ...(input.currency && { currency: input.currency }),
  });
}
