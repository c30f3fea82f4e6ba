import { sql } from 'kysely';
import type { Db } from '../src/db/database.ts';

/** A digest of every ledger table: invoices, sales and the daily rollup, row by row. */
export async function ledgerDigest(db: Db): Promise<string> {
  const { rows } = await sql<{ digest: string }>`
    select concat_ws(':',
      (select md5(coalesce(string_agg(i::text, ',' order by i.id), '')) from invoices i),
      (select md5(coalesce(string_agg(x::text, ',' order by x.id), '')) from transactions x),
      (select md5(coalesce(string_agg(d::text, ',' order by d::text), '')) from transaction_daily d)
    ) as digest`.execute(db);
  return rows[0]?.digest ?? '';
}
