import { sql } from 'kysely';
import type { Db } from '../db/database.ts';

/** Counts one hit for `key` in the window starting at `windowStart` and returns the window's total. */
export async function countHit(db: Db, key: string, windowStart: Date): Promise<number> {
  const row = await db
    .insertInto('rate_limit_hits')
    .values({ key, window_start: windowStart, hits: 1 })
    .onConflict((oc) => oc.columns(['key', 'window_start']).doUpdateSet({ hits: sql`rate_limit_hits.hits + 1` }))
    .returning('hits')
    .executeTakeFirstOrThrow();
  return row.hits;
}

/** The hits counted for `key` in the window starting at `windowStart`. */
export async function readHits(db: Db, key: string, windowStart: Date): Promise<number> {
  const row = await db
    .selectFrom('rate_limit_hits')
    .select('hits')
    .where('key', '=', key)
    .where('window_start', '=', windowStart)
    .executeTakeFirst();
  return row?.hits ?? 0;
}

/** Takes back one hit counted by `countHit` in the same window. */
export async function uncountHit(db: Db, key: string, windowStart: Date): Promise<void> {
  await db
    .updateTable('rate_limit_hits')
    .set({ hits: sql`hits - 1` })
    .where('key', '=', key)
    .where('window_start', '=', windowStart)
    .where('hits', '>', 0)
    .execute();
}

export async function deleteHitsBefore(db: Db, before: Date): Promise<void> {
  await db.deleteFrom('rate_limit_hits').where('window_start', '<', before).execute();
}
