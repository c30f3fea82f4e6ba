import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { AddressOutput } from './types.ts';

/** Any fixed key: blocks are mined one at a time across every process on the database. */
const MINE_LOCK_KEY = 7_340_118;

export async function readDevnetTipHeight(db: Db): Promise<number> {
  const row = await db
    .selectFrom('devnet_chain_blocks')
    .select((eb) => eb.fn.max('height').as('height'))
    .executeTakeFirst();
  return row?.height ?? 0;
}

export async function listDevnetAddressOutputs(db: Db, address: string): Promise<AddressOutput[]> {
  const rows = await db
    .selectFrom('devnet_chain_outputs')
    .select(['txid', 'vout', 'value_sats', 'block_height'])
    .where('address', '=', address)
    .orderBy('created_at')
    .execute();
  return rows.map((row) => ({
    txid: row.txid,
    vout: row.vout,
    valueSats: BigInt(row.value_sats),
    blockHeight: row.block_height,
  }));
}

export async function insertDevnetOutput(
  db: Db,
  output: { txid: string; vout: number; address: string; valueSats: bigint },
): Promise<void> {
  await db
    .insertInto('devnet_chain_outputs')
    .values({ txid: output.txid, vout: output.vout, address: output.address, value_sats: output.valueSats })
    .execute();
}

/**
 * Appends `count` blocks with the given hashes; the first takes every transaction in the mempool.
 * Returns the new tip height.
 */
export async function appendDevnetBlocks(db: Db, hashes: string[]): Promise<number> {
  return db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(${MINE_LOCK_KEY})`.execute(trx);
    let height = await readDevnetTipHeight(trx);
    for (const [position, hash] of hashes.entries()) {
      height += 1;
      await trx.insertInto('devnet_chain_blocks').values({ height, hash }).execute();
      if (position === 0) {
        await trx
          .updateTable('devnet_chain_outputs')
          .set({ block_height: height })
          .where('block_height', 'is', null)
          .execute();
      }
    }
    return height;
  });
}
