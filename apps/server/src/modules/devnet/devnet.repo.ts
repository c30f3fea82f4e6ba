import type { Db } from '../../db/database.ts';

export type DevnetWithdrawal = { k1: string; maxMsat: bigint; usedAt: Date | null };

export async function insertDevnetWithdrawal(db: Db, k1: string, maxMsat: bigint): Promise<void> {
  await db.insertInto('devnet_withdrawals').values({ k1, max_msat: maxMsat }).execute();
}

export async function findDevnetWithdrawal(db: Db, k1: string): Promise<DevnetWithdrawal | undefined> {
  const row = await db
    .selectFrom('devnet_withdrawals')
    .select(['k1', 'max_msat', 'used_at'])
    .where('k1', '=', k1)
    .executeTakeFirst();
  return row && { k1: row.k1, maxMsat: BigInt(row.max_msat), usedAt: row.used_at };
}

/**
 * Marks an unused withdrawal used and answers its limit; undefined when it is unknown or already
 * used. Inside a transaction the row stays locked, so a concurrent claim waits for the outcome.
 */
export async function claimDevnetWithdrawal(db: Db, k1: string): Promise<{ maxMsat: bigint } | undefined> {
  const row = await db
    .updateTable('devnet_withdrawals')
    .set({ used_at: new Date() })
    .where('k1', '=', k1)
    .where('used_at', 'is', null)
    .returning('max_msat')
    .executeTakeFirst();
  return row && { maxMsat: BigInt(row.max_msat) };
}
