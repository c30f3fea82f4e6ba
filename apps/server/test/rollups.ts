import { sql } from 'kysely';
import { expect } from 'vitest';
import type { Db } from '../src/db/database.ts';
import { DAILY_ROLLUP_REBUILD_SQL, DISBURSEMENT_TOTALS_REBUILD_SQL } from '../src/modules/ledger/ledger.repo.ts';

const ROLLUPS = {
  transaction_daily: { rebuild: DAILY_ROLLUP_REBUILD_SQL, key: 'organization_id, day, account_id, currency' },
  disbursement_totals: { rebuild: DISBURSEMENT_TOTALS_REBUILD_SQL, key: 'organization_id, currency' },
} as const;

/**
 * Expects a rollup kept row by row to hold what its one-statement rebuild from the ledger gives.
 * The rebuild replaces the rows with the same figures, so the database is left as it was.
 */
export async function expectRollupEqualsRebuild(db: Db, table: keyof typeof ROLLUPS): Promise<void> {
  const { rebuild, key } = ROLLUPS[table];
  const read = (from: Db) => sql`select * from ${sql.table(table)} order by ${sql.raw(key)}`.execute(from);
  const kept = (await read(db)).rows;
  await db.transaction().execute(async (trx) => {
    await sql`delete from ${sql.table(table)}`.execute(trx);
    await sql.raw(rebuild).execute(trx);
    expect((await read(trx)).rows).toEqual(kept);
  });
}
