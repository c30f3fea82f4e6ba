import type { Db } from '../../db/database.ts';

export type BrandingRow = {
  accent_color: string | null;
  logo_content_type: string | null;
  logo_size: number | null;
  logo_sha256: string | null;
};

/** The organization's colour and what its logo is, without the logo's bytes. */
export async function findBrandingRow(
  db: Db,
  organizationId: string,
  options: { lock?: boolean } = {},
): Promise<BrandingRow | undefined> {
  let query = db
    .selectFrom('organizations')
    .leftJoin('organization_logos', 'organization_logos.organization_id', 'organizations.id')
    .select([
      'organizations.accent_color',
      'organization_logos.content_type as logo_content_type',
      'organization_logos.size as logo_size',
      'organization_logos.sha256 as logo_sha256',
    ])
    .where('organizations.id', '=', organizationId);
  if (options.lock) query = query.forUpdate('organizations');
  return query.executeTakeFirst();
}

export async function updateAccentColor(db: Db, organizationId: string, accentColor: string | null): Promise<void> {
  await db.updateTable('organizations').set({ accent_color: accentColor }).where('id', '=', organizationId).execute();
}

export async function upsertLogo(
  db: Db,
  logo: { organizationId: string; contentType: string; bytes: Buffer; sha256: string },
): Promise<void> {
  const values = { content_type: logo.contentType, bytes: logo.bytes, size: logo.bytes.length, sha256: logo.sha256 };
  await db
    .insertInto('organization_logos')
    .values({ organization_id: logo.organizationId, ...values })
    .onConflict((oc) => oc.column('organization_id').doUpdateSet({ ...values, updated_at: new Date() }))
    .execute();
}

export async function deleteLogo(db: Db, organizationId: string): Promise<void> {
  await db.deleteFrom('organization_logos').where('organization_id', '=', organizationId).execute();
}

/** The logo with its bytes, for the public route. */
export async function findLogo(db: Db, organizationId: string) {
  return db
    .selectFrom('organization_logos')
    .select(['content_type', 'bytes', 'sha256'])
    .where('organization_id', '=', organizationId)
    .executeTakeFirst();
}
