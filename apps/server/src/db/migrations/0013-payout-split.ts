import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // The organization's payout split (DESIGN §4) in basis points, like the ledger columns each
  // sale copies it to, and in whole percentages, as the settings take it. Until a merchant sets
  // one, everything stays in Lightning, as it did before the split existed.
  await db.schema
    .alterTable('organizations')
    .addColumn('payout_fiat_bps', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('payout_onchain_bps', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('payout_lightning_bps', 'integer', (c) => c.notNull().defaultTo(10_000))
    .execute();
  await sql`
    alter table organizations add constraint organizations_payout_split_adds_up check (
      payout_fiat_bps >= 0 and payout_onchain_bps >= 0 and payout_lightning_bps >= 0
      and payout_fiat_bps % 100 = 0 and payout_onchain_bps % 100 = 0 and payout_lightning_bps % 100 = 0
      and payout_fiat_bps + payout_onchain_bps + payout_lightning_bps = 10000
    )
  `.execute(db);
}
