import type { Db } from '../../db/database.ts';

/** A bitcoin price as cached for pricing invoices, with where and when it was fetched. */
export type StoredRate = { currency: string; rateMinorPerBtc: bigint; source: string; fetchedAt: Date };

type RateRow = { currency: string; rate_minor_per_btc: string; source: string; fetched_at: Date };

function toStoredRate(row: RateRow): StoredRate {
  return {
    currency: row.currency,
    rateMinorPerBtc: BigInt(row.rate_minor_per_btc),
    source: row.source,
    fetchedAt: row.fetched_at,
  };
}

/** Stores the rates in one statement, replacing each currency's previous one. */
export async function upsertRates(db: Db, rates: readonly StoredRate[]): Promise<void> {
  if (rates.length === 0) return;
  await db
    .insertInto('rates')
    .values(
      rates.map((rate) => ({
        currency: rate.currency,
        rate_minor_per_btc: rate.rateMinorPerBtc,
        source: rate.source,
        fetched_at: rate.fetchedAt,
      })),
    )
    .onConflict((conflict) =>
      conflict.column('currency').doUpdateSet((eb) => ({
        rate_minor_per_btc: eb.ref('excluded.rate_minor_per_btc'),
        source: eb.ref('excluded.source'),
        fetched_at: eb.ref('excluded.fetched_at'),
      })),
    )
    .execute();
}

export async function findRate(db: Db, currency: string): Promise<StoredRate | undefined> {
  const row = await db
    .selectFrom('rates')
    .select(['currency', 'rate_minor_per_btc', 'source', 'fetched_at'])
    .where('currency', '=', currency)
    .executeTakeFirst();
  return row && toStoredRate(row);
}

export async function listRates(db: Db): Promise<StoredRate[]> {
  const rows = await db
    .selectFrom('rates')
    .select(['currency', 'rate_minor_per_btc', 'source', 'fetched_at'])
    .orderBy('currency')
    .execute();
  return rows.map(toStoredRate);
}
