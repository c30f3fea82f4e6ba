import { OPEN_PAYOUT_STATES } from '@rayo/shared';
import type { Selectable } from 'kysely';
import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { OnchainBatchState, OnchainPayoutBatchesTable } from '../../db/schema.ts';
import type { WalletUtxo } from '../../domain/onchain-batch.ts';
import { statesBefore } from '../../domain/payout-state.ts';
import { insertPayoutShares, unpaidShares } from './payouts.repo.ts';
import { listDepositAddresses } from './payouts-onchain-wallet.repo.ts';

export type BatchRow = Selectable<OnchainPayoutBatchesTable>;

/** Any fixed key: one process at a time builds a batch, across every process on the database. */
const BUILD_LOCK_KEY = 7_340_125;

/** States in which a batch has not reached the chain yet; while one exists no new batch is built. */
export const UNSENT_BATCH_STATES: readonly OnchainBatchState[] = ['awaiting_signature', 'signed'];

/** Holds the batch-building lock until the surrounding transaction ends. */
export async function lockBatchBuilding(trx: Db): Promise<void> {
  await sql`select pg_advisory_xact_lock(${BUILD_LOCK_KEY})`.execute(trx);
}

export type UnpaidOnchainShare = {
  organizationId: string;
  destination: string;
  id: string;
  onchainMsat: bigint;
  settledAt: Date;
};

/**
 * Every unpaid on-chain share of an organization that has an on-chain address and is not
 * blocked, locked; whether a changed address may be paid yet is the caller's to ask.
 */
export async function listUnpaidOnchainShares(trx: Db): Promise<UnpaidOnchainShare[]> {
  const rows = await unpaidShares(trx, 'onchain')
    .innerJoin('organizations as o', 'o.id', 't.organization_id')
    .where('o.onchain_address', 'is not', null)
    .where('o.blocked', '=', false)
    .select(['t.id', 't.organization_id', 't.onchain_msat', 't.settled_at', 'o.onchain_address'])
    .orderBy('t.organization_id')
    .orderBy('t.settled_at')
    .forUpdate('t')
    .execute();
  return rows.map((row) => ({
    organizationId: row.organization_id,
    destination: row.onchain_address as string,
    id: row.id,
    onchainMsat: BigInt(row.onchain_msat),
    settledAt: row.settled_at,
  }));
}

/** The counter row of a wallet's change addresses (`1/i`), beside its receive counter. */
function changeCounter(wallet: string): string {
  return `${wallet}:change`;
}

/**
 * The next change index of the wallet, not yet taken. Only batch building (under its lock) takes
 * change indexes, so reading and then taking it cannot race.
 */
export async function readNextChangeIndex(trx: Db, wallet: string): Promise<number> {
  const row = await trx
    .selectFrom('onchain_wallet_counters')
    .select('next_index')
    .where('wallet', '=', changeCounter(wallet))
    .executeTakeFirst();
  return row?.next_index ?? 0;
}

/** Marks change index `index` used: the batch written with it holds change there. */
export async function takeChangeIndex(trx: Db, wallet: string, index: number): Promise<void> {
  await trx
    .insertInto('onchain_wallet_counters')
    .values({ wallet: changeCounter(wallet), next_index: index + 1 })
    .onConflict((oc) => oc.column('wallet').doUpdateSet({ next_index: index + 1 }))
    .execute();
}

export async function countUnsentBatches(db: Db): Promise<number> {
  const row = await db
    .selectFrom('onchain_payout_batches')
    .select(sql<string>`count(*)`.as('count'))
    .where('state', 'in', UNSENT_BATCH_STATES)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/**
 * The wallet's addresses that may hold something to spend: checkout addresses the watcher saw
 * paid, the deposit addresses back office handed out, and the change addresses of earlier batches.
 */
export async function listFundedWalletAddresses(
  db: Db,
  wallet: string,
): Promise<Array<{ address: string; change: 0 | 1; index: number }>> {
  const received = await db
    .selectFrom('checkout_onchain_addresses as a')
    .select(['a.address', 'a.derivation_index'])
    .where('a.wallet', '=', wallet)
    .where(({ exists, selectFrom }) =>
      exists(
        selectFrom('checkout_onchain_outputs as o')
          .select('o.txid')
          .whereRef('o.checkout_id', '=', 'a.checkout_id')
          .where(
            sql<boolean>`not exists (
              select 1 from onchain_payout_batches b, jsonb_array_elements(b.inputs) i
              where i->>'txid' = o.txid and (i->>'vout')::int = o.vout
            )`,
          ),
      ),
    )
    .execute();
  const change = await db
    .selectFrom('onchain_payout_batches')
    .select(['change_address', 'change_index'])
    .where('change_address', 'is not', null)
    .execute();
  const deposits = await listDepositAddresses(db, wallet);
  return [
    ...received.map((row) => ({ address: row.address, change: 0 as const, index: row.derivation_index })),
    ...deposits.map((row) => ({ address: row.address, change: 0 as const, index: row.derivation_index })),
    ...change.map((row) => ({
      address: row.change_address as string,
      change: 1 as const,
      index: row.change_index as number,
    })),
  ];
}

export type NewBatch = BatchTransaction & {
  state: 'awaiting_signature' | 'signed';
  payouts: Array<{
    organizationId: string;
    destination: string;
    amountMsat: bigint;
    feeMsat: bigint;
    shares: Array<{ id: string; onchainMsat: bigint }>;
  }>;
};

/**
 * The batch, its payouts (pending, sharing its txid) and the shares each carries, in the caller's
 * transaction. The payouts' ids come back in the order they were given.
 */
export async function insertBatch(trx: Db, batch: NewBatch): Promise<{ batch: BatchRow; payoutIds: string[] }> {
  const row = await trx
    .insertInto('onchain_payout_batches')
    .values({ ...transactionColumns(batch), state: batch.state })
    .returningAll()
    .executeTakeFirstOrThrow();
  const payoutIds: string[] = [];
  for (const payout of batch.payouts) {
    const inserted = await trx
      .insertInto('payouts')
      .values({
        organization_id: payout.organizationId,
        kind: 'onchain',
        destination: payout.destination,
        amount_msat: payout.amountMsat,
        fee_msat: payout.feeMsat,
        idempotency_key: `onchain:${row.id}:${payout.organizationId}`,
        txid: batch.txid,
        batch_id: row.id,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await insertPayoutShares(
      trx,
      inserted.id,
      'onchain',
      payout.shares.map((share) => ({ id: share.id, amountMsat: share.onchainMsat })),
    );
    payoutIds.push(inserted.id);
  }
  return { batch: row, payoutIds };
}

/** Batches the job still follows: not on the chain yet, or not deep enough yet. */
export async function listOpenBatches(db: Db): Promise<BatchRow[]> {
  return db
    .selectFrom('onchain_payout_batches')
    .selectAll()
    .where('state', '!=', 'confirmed')
    .orderBy('created_at')
    .execute();
}

export async function findBatch(db: Db, id: string, options: { lock?: boolean } = {}): Promise<BatchRow | undefined> {
  return db
    .selectFrom('onchain_payout_batches')
    .selectAll()
    .where('id', '=', id)
    .$if(options.lock === true, (query) => query.forUpdate())
    .executeTakeFirst();
}

/** A batch's transaction, as the batch row and its replaced versions hold it. */
export type BatchTransaction = {
  txid: string;
  psbt: string;
  rawTx: string | null;
  feeSats: bigint;
  feeRate: bigint;
  vsize: number;
  inputs: WalletUtxo[];
  changeAddress: string | null;
  changeIndex: number | null;
  changeSats: bigint;
};

function transactionColumns(tx: BatchTransaction) {
  return {
    txid: tx.txid,
    psbt: tx.psbt,
    raw_tx: tx.rawTx,
    fee_sats: tx.feeSats,
    fee_rate_sat_per_kvb: tx.feeRate * 1000n,
    vsize: tx.vsize,
    inputs: JSON.stringify(tx.inputs.map((input) => ({ ...input, valueSats: input.valueSats.toString() }))),
    change_address: tx.changeAddress,
    change_index: tx.changeIndex,
    change_sats: tx.changeSats,
  };
}

/** The wallet outputs a batch (or a version of it) spends, as stored. */
export function parseBatchInputs(stored: unknown): WalletUtxo[] {
  return (stored as Array<Omit<WalletUtxo, 'valueSats'> & { valueSats: string }>).map((input) => ({
    ...input,
    valueSats: BigInt(input.valueSats),
  }));
}

function storedTransaction(row: {
  txid: string;
  psbt: string;
  raw_tx: string | null;
  fee_sats: string;
  fee_rate_sat_per_kvb: string;
  vsize: number;
  inputs: unknown;
  change_address: string | null;
  change_index: number | null;
  change_sats: string;
}): BatchTransaction {
  return {
    txid: row.txid,
    psbt: row.psbt,
    rawTx: row.raw_tx,
    feeSats: BigInt(row.fee_sats),
    feeRate: BigInt(row.fee_rate_sat_per_kvb) / 1000n,
    vsize: row.vsize,
    inputs: parseBatchInputs(row.inputs),
    changeAddress: row.change_address,
    changeIndex: row.change_index,
    changeSats: BigInt(row.change_sats),
  };
}

/**
 * Puts `next` in the place of the batch's transaction, which is kept as a version it replaced;
 * the batch's payouts take the new txid and their parts of the new fee (msat, in payout order).
 * A signed replacement is broadcast at once; one for the operator's wallet waits for it. In the
 * caller's transaction, which holds the batch row.
 */
export async function replaceBatchTransaction(
  trx: Db,
  batch: BatchRow,
  next: BatchTransaction & { state: 'signed' | 'awaiting_signature'; payoutFeesMsat: bigint[] },
): Promise<void> {
  await trx
    .insertInto('onchain_batch_versions')
    .values({ ...transactionColumns(storedTransaction(batch)), batch_id: batch.id })
    .execute();
  await updateBatchTransaction(trx, batch.id, next, next.state);
  await setPayoutsTransaction(trx, batch.id, next.txid, next.payoutFeesMsat);
}

async function updateBatchTransaction(
  trx: Db,
  id: string,
  tx: BatchTransaction,
  state: OnchainBatchState,
): Promise<void> {
  await trx
    .updateTable('onchain_payout_batches')
    .set({
      ...transactionColumns(tx),
      state,
      attempts: 0,
      last_error: null,
      next_attempt_at: sql`now()`,
      updated_at: sql`now()`,
    })
    .where('id', '=', id)
    .execute();
}

async function setPayoutsTransaction(trx: Db, batchId: string, txid: string, feesMsat: bigint[]): Promise<void> {
  const payouts = await trx
    .selectFrom('payouts')
    .select('id')
    .where('batch_id', '=', batchId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  for (const [index, payout] of payouts.entries()) {
    await trx
      .updateTable('payouts')
      .set({ txid, fee_msat: feesMsat[index] ?? 0n, updated_at: sql`now()` })
      .where('id', '=', payout.id)
      .execute();
  }
}

/** The transactions the batches' fee bumps replaced, oldest first. */
export async function listBatchVersions(db: Db, batchIds: readonly string[]) {
  if (batchIds.length === 0) return [];
  const rows = await db
    .selectFrom('onchain_batch_versions')
    .selectAll()
    .where('batch_id', 'in', batchIds)
    .orderBy('replaced_at')
    .execute();
  return rows.map((row) => ({ batchId: row.batch_id, ...storedTransaction(row) }));
}

/**
 * The chain took a transaction the batch had replaced: it becomes the batch's transaction again
 * (its payouts take its txid and fee parts back), and the newer one it conflicts with is dropped.
 */
export async function adoptBatchVersion(
  db: Db,
  batchId: string,
  txid: string,
  payoutFeesMsat: bigint[],
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const version = await trx
      .selectFrom('onchain_batch_versions')
      .selectAll()
      .where('batch_id', '=', batchId)
      .where('txid', '=', txid)
      .forUpdate()
      .executeTakeFirst();
    if (!version) return;
    await trx.deleteFrom('onchain_batch_versions').where('txid', '=', txid).execute();
    await updateBatchTransaction(trx, batchId, storedTransaction(version), 'broadcast');
    await setPayoutsTransaction(trx, batchId, txid, payoutFeesMsat);
  });
}

/** Newest first, for back office. */
export async function listBatches(db: Db, limit: number): Promise<BatchRow[]> {
  return db.selectFrom('onchain_payout_batches').selectAll().orderBy('created_at', 'desc').limit(limit).execute();
}

/** The operator's signed transaction: the batch can now be broadcast. False when it was signed already. */
export async function storeSignedBatch(db: Db, id: string, rawTx: string): Promise<boolean> {
  const result = await db
    .updateTable('onchain_payout_batches')
    .set({ state: 'signed', raw_tx: rawTx, next_attempt_at: sql`now()`, updated_at: sql`now()` })
    .where('id', '=', id)
    .where('state', '=', 'awaiting_signature')
    .executeTakeFirst();
  return result.numUpdatedRows === 1n;
}

/**
 * The chain has the batch's transaction: its payouts are sent (once; a guarded update), and its
 * depth is recorded; `final` stops the job following it. Answers how many payouts this call marked sent.
 */
export async function markBatchOnChain(
  db: Db,
  id: string,
  seen: { blockHeight: number | null; confirmations: number; final: boolean },
): Promise<number> {
  return db.transaction().execute(async (trx) => {
    await trx
      .updateTable('onchain_payout_batches')
      .set({
        state: seen.final ? 'confirmed' : 'broadcast',
        block_height: seen.blockHeight,
        confirmations: seen.confirmations,
        broadcast_at: sql`coalesce(broadcast_at, now())`,
        last_error: null,
        updated_at: sql`now()`,
      })
      .where('id', '=', id)
      .where('state', '!=', 'confirmed')
      .execute();
    // An on-chain refund (decision 0063) is paid once the chain has its transaction.
    await trx
      .updateTable('refunds')
      .set({ state: 'paid', paid_at: sql`now()` })
      .where('batch_id', '=', id)
      .where('state', '=', 'paying')
      .execute();
    const sent = await trx
      .updateTable('payouts')
      .set({ state: 'sent', last_error: null, sent_at: sql`now()`, updated_at: sql`now()` })
      .where('batch_id', '=', id)
      .where('state', 'in', statesBefore('sent'))
      .executeTakeFirst();
    return Number(sent.numUpdatedRows);
  });
}

/** A failed broadcast: counted on the batch, retried after `retryInSeconds`. Returns the attempts so far. */
export async function recordBatchFailure(db: Db, id: string, error: string, retryInSeconds: number): Promise<void> {
  await db
    .updateTable('onchain_payout_batches')
    .set({
      attempts: sql`attempts + 1`,
      last_error: error,
      next_attempt_at: sql`now() + make_interval(secs => ${retryInSeconds})`,
      updated_at: sql`now()`,
    })
    .where('id', '=', id)
    .execute();
}

/**
 * The on-chain refunds the batch sends (decision 0063), outputs beside its payouts': how many, and
 * the whole sats they pay (the part below one sat stays, as with payouts).
 */
export async function summarizeBatchRefunds(db: Db, batchId: string): Promise<{ count: number; sats: bigint }> {
  const row = await db
    .selectFrom('refunds')
    .select([sql<string>`count(*)`.as('count'), sql<string>`coalesce(sum(amount_msat / 1000), 0)`.as('sats')])
    .where('batch_id', '=', batchId)
    .executeTakeFirstOrThrow();
  return { count: Number(row.count), sats: BigInt(row.sats) };
}

/** A batch's payouts; only those still open unless `includeSent`. */
export async function listBatchPayouts(
  db: Db,
  batchId: string,
  options: { includeSent?: boolean } = {},
): Promise<Array<{ id: string; organizationId: string; destination: string; amountMsat: bigint }>> {
  const rows = await db
    .selectFrom('payouts')
    .select(['id', 'organization_id', 'destination', 'amount_msat'])
    .where('batch_id', '=', batchId)
    .$if(options.includeSent !== true, (query) => query.where('state', 'in', OPEN_PAYOUT_STATES))
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map((row) => ({
    id: row.id,
    organizationId: row.organization_id,
    destination: row.destination,
    amountMsat: BigInt(row.amount_msat),
  }));
}

/** How deep the chain has the transactions of the organization's on-chain payouts, by payout id. */
export async function listPayoutConfirmations(
  db: Db,
  organizationId: string,
  payoutIds: string[],
): Promise<Map<string, number>> {
  if (payoutIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('payouts as p')
    .innerJoin('onchain_payout_batches as b', 'b.id', 'p.batch_id')
    .select(['p.id', 'b.confirmations', 'b.state'])
    .where('p.organization_id', '=', organizationId)
    .where('p.id', 'in', payoutIds)
    .execute();
  return new Map(
    rows
      .filter((row) => row.state === 'broadcast' || row.state === 'confirmed')
      .map((row) => [row.id, row.confirmations]),
  );
}
