import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // A donation link (SPEC §3 'LNURL-Pay: amount per pay (optional)') sells through a virtual BPT,
  // whose linked terminal gives the account and currency each donation is recorded in.
  await db.schema
    .createTable('donation_links')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('organization_id', 'uuid', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('virtual_bpt_id', 'uuid', (c) => c.notNull().references('virtual_bpts.id'))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    // Null accepts any amount (SPEC §5).
    .addColumn('amount_msat', 'bigint', (c) => c.check(sql`amount_msat >= 1000`))
    .addColumn('comment_allowed', 'integer', (c) => c.notNull().check(sql`comment_allowed >= 0`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    // A deleted link stops taking donations; its donations stay in the history.
    .addColumn('deleted_at', 'timestamptz')
    .execute();
  await sql`create index donation_links_organization_idx on donation_links (organization_id) where deleted_at is null`.execute(
    db,
  );

  // One row per invoice a donor asked for; `received_at` is set when the invoice settles, in the
  // settlement's own transaction, so the history holds each paid donation exactly once.
  await db.schema
    .createTable('donations')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('organization_id', 'uuid', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('donation_link_id', 'uuid', (c) => c.notNull().references('donation_links.id'))
    .addColumn('invoice_id', 'uuid', (c) => c.notNull().unique().references('invoices.id'))
    .addColumn('amount_msat', 'bigint', (c) => c.notNull())
    .addColumn('comment', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('received_at', 'timestamptz')
    .execute();
  await sql`create index donations_received_idx on donations (organization_id, received_at desc, id) where received_at is not null`.execute(
    db,
  );

  // The organization's Lightning address (LUD-16): `username@host` pays its chosen donation link.
  // Names are unique across organizations, since they share the host.
  await db.schema
    .createTable('donation_addresses')
    .addColumn('organization_id', 'uuid', (c) => c.primaryKey().references('organizations.id').onDelete('cascade'))
    .addColumn('username', 'text', (c) => c.notNull().unique())
    .addColumn('donation_link_id', 'uuid', (c) => c.notNull().references('donation_links.id'))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
}
