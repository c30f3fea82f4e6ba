import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // The currency the organization reports in: its fiat metrics sum the sales priced in it.
  await db.schema
    .alterTable('organizations')
    .addColumn('currency', 'text', (c) => c.notNull().defaultTo('USD'))
    .execute();
  await sql`update organizations set currency = 'GTQ' from countries where countries.id = organizations.country_id and countries.code = 'GT'`.execute(
    db,
  );
}
