import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { AddressOutput } from './types.ts';

/** Any fixed key: blocks are mined one at a time across every process on the database. */
const MINE_LOCK_KEY = 7_340_118;
/** Bitcoin Core's default incremental relay fee, 1 sat/vB (policy/policy.h), which a replacement adds. */
const INCREMENTAL_RELAY_SAT_PER_VB = 1n;

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

/** A payment from the devnet wallet: its transaction and its one output, in the mempool. */
export async function insertDevnetFunding(
  db: Db,
  funding: { txid: string; rawHex: string; vsize: number; address: string; valueSats: bigint },
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto('devnet_chain_transactions')
      .values({ txid: funding.txid, raw_hex: funding.rawHex, fee_sats: 0n, vsize: funding.vsize })
      .execute();
    await trx
      .insertInto('devnet_chain_outputs')
      .values({ txid: funding.txid, vout: 0, address: funding.address, value_sats: funding.valueSats })
      .execute();
  });
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
        for (const table of ['devnet_chain_outputs', 'devnet_chain_transactions'] as const) {
          await trx.updateTable(table).set({ block_height: height }).where('block_height', 'is', null).execute();
        }
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

/**
 * The block of a devnet transaction (null in the mempool), or undefined when the chain does not
 * have it. Payments made before the chain kept whole transactions are known by their outputs.
 */
export async function findDevnetTransaction(db: Db, txid: string): Promise<{ blockHeight: number | null } | undefined> {
  const row = await db
    .selectFrom('devnet_chain_transactions')
    .select('block_height')
    .where('txid', '=', txid)
    .unionAll(db.selectFrom('devnet_chain_outputs').select('block_height').where('txid', '=', txid))
    .limit(1)
    .executeTakeFirst();
  return row ? { blockHeight: row.block_height } : undefined;
}

export async function findDevnetRawTransaction(db: Db, txid: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('devnet_chain_transactions')
    .select('raw_hex')
    .where('txid', '=', txid)
    .executeTakeFirst();
  return row?.raw_hex;
}

export type DevnetSpend = {
  txid: string;
  rawHex: string;
  vsize: number;
  inputs: Array<{ txid: string; vout: number }>;
  outputs: Array<{ vout: number; address: string; valueSats: bigint }>;
};

/** What a spent output held: the signature check needs its address and amount. */
export type DevnetPrevout = { address: string; valueSats: bigint };

type Trx = Db;

/**
 * Puts a transaction in the devnet mempool as Bitcoin Core's `sendrawtransaction` would: every
 * input must be an output the chain has and nothing mined spends (`bad-txns-inputs-missingorspent`),
 * `check` must accept the signatures, the inputs must hold what the outputs pay
 * (`bad-txns-in-belowout`), and the fee must reach 1 sat/vB (`min relay fee not met`). A
 * transaction spending what one in the mempool spends replaces it (full RBF, Core's default since
 * v28) only by BIP 125's rules: no new unconfirmed input, a higher fee rate, and the replaced fees
 * plus 1 sat/vB of its own size; the replaced ones and their descendants leave the mempool. A
 * transaction the mempool has already is accepted again; one mined is refused (`Transaction
 * outputs already in utxo set`). Inputs are locked, so two spends of one output cannot both pass.
 * Answers why it is refused, or null once the mempool has it.
 */
export async function acceptDevnetTransaction(
  db: Db,
  spend: DevnetSpend,
  check: (prevouts: DevnetPrevout[]) => string | null,
): Promise<string | null> {
  return db.transaction().execute(async (trx) => {
    const known = await findDevnetTransaction(trx, spend.txid);
    if (known) return known.blockHeight === null ? null : 'Transaction outputs already in utxo set';
    const prevouts: DevnetPrevout[] = [];
    const conflicts = new Set<string>();
    const unconfirmedParents = new Set<string>();
    for (const input of spend.inputs) {
      const row = await trx
        .selectFrom('devnet_chain_outputs')
        .select(['address', 'value_sats', 'spent_by_txid', 'block_height'])
        .where('txid', '=', input.txid)
        .where('vout', '=', input.vout)
        .forUpdate()
        .executeTakeFirst();
      if (!row) return 'bad-txns-inputs-missingorspent';
      if (row.spent_by_txid !== null) {
        const spender = await findDevnetTransaction(trx, row.spent_by_txid);
        if (spender?.blockHeight !== null) return 'bad-txns-inputs-missingorspent';
        conflicts.add(row.spent_by_txid);
      }
      if (row.block_height === null) unconfirmedParents.add(input.txid);
      prevouts.push({ address: row.address, valueSats: BigInt(row.value_sats) });
    }
    const refused = check(prevouts);
    if (refused !== null) return refused;
    const inputSats = prevouts.reduce((sum, prevout) => sum + prevout.valueSats, 0n);
    const outputSats = spend.outputs.reduce((sum, output) => sum + output.valueSats, 0n);
    if (outputSats > inputSats) return 'bad-txns-in-belowout';
    const fee = inputSats - outputSats;
    const vsize = BigInt(spend.vsize);
    if (fee < vsize) return `min relay fee not met, ${fee} < ${vsize}`;
    if (conflicts.size > 0) {
      const refusal = await checkReplacement(trx, spend, fee, conflicts, unconfirmedParents);
      if (refusal !== null) return refusal;
      for (const conflict of conflicts) await evict(trx, conflict);
    }
    for (const input of spend.inputs) {
      await trx
        .updateTable('devnet_chain_outputs')
        .set({ spent_by_txid: spend.txid })
        .where('txid', '=', input.txid)
        .where('vout', '=', input.vout)
        .execute();
    }
    await trx
      .insertInto('devnet_chain_transactions')
      .values({ txid: spend.txid, raw_hex: spend.rawHex, fee_sats: fee, vsize: spend.vsize })
      .execute();
    if (spend.outputs.length > 0) {
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
    }
    return null;
  });
}

async function checkReplacement(
  trx: Trx,
  spend: DevnetSpend,
  fee: bigint,
  conflicts: Set<string>,
  unconfirmedParents: Set<string>,
): Promise<string | null> {
  const replaced = await trx
    .selectFrom('devnet_chain_transactions')
    .select(['txid', 'fee_sats', 'vsize'])
    .where('txid', 'in', [...conflicts])
    .execute();
  const parentsBefore = await trx
    .selectFrom('devnet_chain_outputs')
    .select('txid')
    .where('spent_by_txid', 'in', [...conflicts])
    .execute();
  const spentBefore = new Set(parentsBefore.map((row) => row.txid));
  if ([...unconfirmedParents].some((parent) => !spentBefore.has(parent))) {
    return `replacement-adds-unconfirmed, replacement ${spend.txid} adds unconfirmed input`;
  }
  const vsize = BigInt(spend.vsize);
  let replacedFee = 0n;
  for (const row of replaced) {
    replacedFee += BigInt(row.fee_sats);
    if (fee * BigInt(row.vsize) <= BigInt(row.fee_sats) * vsize) {
      return `insufficient fee, rejecting replacement ${spend.txid}; new feerate too low`;
    }
  }
  if (fee < replacedFee + vsize * INCREMENTAL_RELAY_SAT_PER_VB) {
    return `insufficient fee, rejecting replacement ${spend.txid}, not enough additional fees to relay`;
  }
  return null;
}

/** Takes a mempool transaction and every mempool transaction spending its outputs off the chain. */
async function evict(trx: Trx, txid: string): Promise<void> {
  const children = await trx
    .selectFrom('devnet_chain_outputs')
    .select('spent_by_txid')
    .distinct()
    .where('txid', '=', txid)
    .where('spent_by_txid', 'is not', null)
    .execute();
  for (const child of children) await evict(trx, child.spent_by_txid as string);
  await trx
    .updateTable('devnet_chain_outputs')
    .set({ spent_by_txid: null })
    .where('spent_by_txid', '=', txid)
    .execute();
  await trx.deleteFrom('devnet_chain_outputs').where('txid', '=', txid).execute();
  await trx.deleteFrom('devnet_chain_transactions').where('txid', '=', txid).execute();
}
