import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // A virtual BPT (SPEC §3) sells online on behalf of a real terminal: its sales land on that
  // terminal's account and currency, so the dashboard shows them with the terminal's channel.
  await db.schema
    .createTable('virtual_bpts')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('organization_id', 'uuid', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('bpt_id', 'uuid', (c) => c.notNull().references('bpts.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    // Deleted virtual terminals keep their sales; they only leave the lists.
    .addColumn('deleted_at', 'timestamptz')
    .execute();
  await sql`create index virtual_bpts_organization_idx on virtual_bpts (organization_id) where deleted_at is null`.execute(
    db,
  );

  // What an invoice sells: a terminal sale, a payment link, a donation or a store checkout. The
  // source's own row (`source_id`) lives in that source's table, which owns the rest of its state.
  const sources = sql`('terminal', 'payment_link', 'donation', 'checkout')`;
  await db.schema
    .alterTable('invoices')
    .addColumn('source', 'text', (c) => c.notNull().defaultTo('terminal').check(sql`source in ${sources}`))
    .addColumn('source_id', 'uuid')
    .addColumn('virtual_bpt_id', 'uuid', (c) => c.references('virtual_bpts.id'))
    .execute();
  await sql`create index invoices_source_idx on invoices (source_id) where source_id is not null`.execute(db);
  await db.schema
    .alterTable('transactions')
    .addColumn('source', 'text', (c) => c.notNull().defaultTo('terminal').check(sql`source in ${sources}`))
    .addColumn('virtual_bpt_id', 'uuid', (c) => c.references('virtual_bpts.id'))
    .execute();
}
