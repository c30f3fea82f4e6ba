import type { CurrentOrganization } from '@rayo/shared';
import type { Db } from '../../db/database.ts';
import type { NewOrganization, Organization } from '../../db/schema.ts';

export async function insertOrganization(db: Db, organization: NewOrganization): Promise<Organization> {
  return db.insertInto('organizations').values(organization).returningAll().executeTakeFirstOrThrow();
}

export async function findOrganizationByName(db: Db, name: string): Promise<Organization | undefined> {
  return db.selectFrom('organizations').selectAll().where('name', '=', name).executeTakeFirst();
}

export async function countOrganizations(db: Db): Promise<number> {
  const row = await db
    .selectFrom('organizations')
    .select((eb) => eb.fn.countAll<string>().as('count'))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

export async function findOrganizationById(db: Db, id: string): Promise<Organization | undefined> {
  return db.selectFrom('organizations').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The organization as its users' screens show it: name, country, time zone, currency and language. */
export async function findCurrentOrganization(db: Db, id: string): Promise<CurrentOrganization | undefined> {
  return db
    .selectFrom('organizations')
    .leftJoin('countries', 'countries.id', 'organizations.country_id')
    .select([
      'organizations.id',
      'organizations.name',
      'countries.code as countryCode',
      'organizations.time_zone as timeZone',
      'organizations.currency',
      'organizations.language',
      'organizations.blocked_reason as blockedReason',
    ])
    .where('organizations.id', '=', id)
    .executeTakeFirst();
}
