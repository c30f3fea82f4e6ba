import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // One public link per sale. The token is random (128 bits and more), never derived from the
  // sale's id, and kept as a unique index so the paid screen can show the same link again.
  await db.schema
    .createTable('receipts')
    .addColumn('transaction_id', 'uuid', (c) => c.primaryKey().references('transactions.id').onDelete('cascade'))
    .addColumn('organization_id', 'uuid', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('token', 'text', (c) => c.notNull().check(sql`length(token) >= 22`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`create unique index receipts_token_idx on receipts (token)`.execute(db);
}
