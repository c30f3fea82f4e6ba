import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // Settings that are one value per organization: the accent colour of its public pages, and
  // checkout protection (DESIGN §9), off until the merchant turns it on.
  await db.schema
    .alterTable('organizations')
    .addColumn('accent_color', 'text', (c) => c.check(sql`accent_color ~ '^#[0-9a-f]{6}$'`))
    .addColumn('checkout_protection', 'boolean', (c) => c.notNull().defaultTo(false))
    .execute();

  // The logo lives beside the organization rather than in its row, so that the many reads of
  // `organizations` never carry up to 512 KB of image. The type is the one sniffed from the
  // bytes, never the client's word.
  await db.schema
    .createTable('organization_logos')
    .addColumn('organization_id', 'uuid', (c) => c.primaryKey().references('organizations.id').onDelete('cascade'))
    .addColumn('content_type', 'text', (c) => c.notNull().check(sql`content_type in ('image/png', 'image/jpeg')`))
    .addColumn('bytes', 'bytea', (c) => c.notNull())
    .addColumn('size', 'integer', (c) => c.notNull().check(sql`size > 0 and size <= 524288`))
    .addColumn('sha256', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  // KYB documents (SPEC §2 "KYB file upload"), for back office to verify the organization.
  await db.schema
    .createTable('kyb_documents')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('organization_id', 'uuid', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('file_name', 'text', (c) => c.notNull())
    .addColumn('content_type', 'text', (c) =>
      c.notNull().check(sql`content_type in ('application/pdf', 'image/png', 'image/jpeg')`),
    )
    .addColumn('bytes', 'bytea', (c) => c.notNull())
    .addColumn('size', 'integer', (c) => c.notNull().check(sql`size > 0 and size <= 10485760`))
    .addColumn('sha256', 'text', (c) => c.notNull())
    .addColumn('uploaded_by', 'uuid', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`create index kyb_documents_organization_idx on kyb_documents (organization_id, created_at, id)`.execute(db);
}
