import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // The table's total counts a period's sales from the rollup. A busy organization's rows are
  // scattered among everyone's (each day adds one per account), so over its whole history the
  // primary key visits one heap page per row, some 9,000 for two years of twelve accounts.
  // With the account and the count in the index, the count reads a few dozen index pages.
  await sql`create index transaction_daily_org_day_count_idx on transaction_daily (organization_id, day) include (account_id, count)`.execute(
    db,
  );
}
