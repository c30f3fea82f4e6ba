import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // Why an organization's on-chain shares were left out of the last payout run, written by that
  // run: back office sees what waits and why, the merchant's payout history says it, and a row
  // that turns to 'wallet_funds' raises one back-office notification. `since` is when it began
  // waiting for this reason; a run that pays the organization, or finds nothing owed, drops the row.
  await db.schema
    .createTable('onchain_payout_waits')
    .addColumn('organization_id', 'uuid', (c) => c.primaryKey().references('organizations.id').onDelete('cascade'))
    .addColumn('reason', 'text', (c) =>
      c
        .notNull()
        .check(
          sql`reason in ('wallet_funds', 'below_minimum', 'destination_hold', 'batch_pending', 'no_address', 'blocked', 'no_wallet')`,
        ),
    )
    .addColumn('owed_sats', 'bigint', (c) => c.notNull())
    .addColumn('since', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  // Receive addresses of the platform wallet handed to back office to fund it. They take their
  // index from the same counter as checkout addresses, so no address serves both; a payment to one
  // is the platform's own money and never a sale.
  await db.schema
    .createTable('platform_wallet_deposits')
    .addColumn('address', 'text', (c) => c.primaryKey())
    .addColumn('wallet', 'text', (c) => c.notNull())
    .addColumn('derivation_index', 'integer', (c) => c.notNull())
    .addColumn('created_by', 'uuid', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('platform_wallet_deposits_wallet_index', ['wallet', 'derivation_index'])
    .execute();
}
