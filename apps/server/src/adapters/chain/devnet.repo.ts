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

export async function listDevnetAddressUtxos(db: Db, address: string): Promise<AddressOutput[]> {
  const rows = await db
    .selectFrom('devnet_chain_outputs')
    .select(['txid', 'vout', 'value_sats', 'block_height'])
    .where('address', '=', address)
    .where('spent_by_txid', 'is', null)
    .orderBy('created_at')
    .execute();
  return rows.map((row) => ({
    txid: row.txid,
    vout: row.vout,
    valueSats: BigInt(row.value_sats),
    blockHeight: row.block_height,
  }));
}

/** The block of a devnet transaction (null in the mempool), or undefined when the chain does not have it. */
export async function findDevnetTransaction(db: Db, txid: string): Promise<{ blockHeight: number | null } | undefined> {
  const row = await db
    .selectFrom('devnet_chain_outputs')
    .select('block_height')
    .where('txid', '=', txid)
    .limit(1)
    .executeTakeFirst();
  return row ? { blockHeight: row.block_height } : undefined;
}

export type DevnetSpend = {
  txid: string;
  inputs: Array<{ txid: string; vout: number }>;
  outputs: Array<{ vout: number; address: string; valueSats: bigint }>;
};

/**
 * Puts a transaction in the devnet mempool, as a node accepting it would: every input must be an
 * unspent output worth at least what the outputs pay, and a transaction already known is
 * accepted again unchanged. The inputs are locked, so two spends of one output cannot both pass.
 * Answers why it is refused, or null when the mempool has it.
 */
export async function acceptDevnetTransaction(db: Db, spend: DevnetSpend): Promise<string | null> {
  return db.transaction().execute(async (trx) => {
    if (await findDevnetTransaction(trx, spend.txid)) return null;
    let inputSats = 0n;
    for (const input of spend.inputs) {
      const row = await trx
        .selectFrom('devnet_chain_outputs')
        .select(['value_sats', 'spent_by_txid'])
        .where('txid', '=', input.txid)
        .where('vout', '=', input.vout)
        .forUpdate()
        .executeTakeFirst();
      if (!row || row.spent_by_txid !== null) return 'bad-txns-inputs-missingorspent';
      inputSats += BigInt(row.value_sats);
    }
    const outputSats = spend.outputs.reduce((sum, output) => sum + output.valueSats, 0n);
    if (outputSats > inputSats) return 'bad-txns-in-belowout';
    for (const input of spend.inputs) {
      await trx
        .updateTable('devnet_chain_outputs')
        .set({ spent_by_txid: spend.txid })
        .where('txid', '=', input.txid)
        .where('vout', '=', input.vout)
        .execute();
    }
    await trx
      .insertInto('devnet_chain_outputs')
      .values(
        spend.outputs.map((output) => ({
          txid: spend.txid,
          vout: output.vout,
          address: output.address,
          value_sats: output.valueSats,
        })),
      )
      .execute();
    return null;
  });
}
