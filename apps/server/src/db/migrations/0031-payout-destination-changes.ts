import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // Every change of where an organization is paid (Lightning address, on-chain address, bank
  // account), so that payouts wait until back office verifies it or its cool-down has passed
  // with the admins mailed (domain/payout-destination-hold.ts). Destinations set before this
  // table existed have no row and are paid as before.
  await db.schema
    .createTable('payout_destination_changes')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('organization_id', 'uuid', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('lightning', 'onchain', 'bank')`))
    // The destination before and after, as JSON: an address's text, or a bank account's fields.
    // A cancel puts `before_value` back, with the verification it had.
    .addColumn('before_value', 'jsonb')
    .addColumn('before_verified', 'boolean', (c) => c.notNull())
    .addColumn('after_value', 'jsonb', (c) => c.notNull())
    .addColumn('changed_by_user_id', 'uuid', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('changed_by_email', 'text')
    .addColumn('changed_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    // Set once every admin was mailed; the cool-down runs from then, so an unmailed change waits
    // for back office.
    .addColumn('admins_mailed_at', 'timestamptz')
    .addColumn('release_at', 'timestamptz')
    .addColumn('cancelled_at', 'timestamptz')
    // The mailed cancel link's secret, as SHA-256.
    .addColumn('cancel_token_hash', 'text', (c) => c.notNull().unique())
    .execute();
  await sql`create index payout_destination_changes_live_idx
    on payout_destination_changes (organization_id, kind, changed_at desc)
    where cancelled_at is null`.execute(db);
}
