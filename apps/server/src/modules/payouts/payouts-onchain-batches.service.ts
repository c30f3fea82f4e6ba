import { AppError, type OnchainPayoutBatch, type OnchainWalletSummary } from '@rayo/shared';
import { base64 } from '@scure/base';
import type { Db } from '../../db/database.ts';
import {
  acceptSignedBatch,
  type BuiltBatch,
  InsufficientFundsError,
  SignedBatchError,
  signBatch,
  splitFee,
} from '../../domain/onchain-batch.ts';
import { buildReplacement } from '../../domain/onchain-fee-bump.ts';
import type { RequestContext } from '../../http/request-context.ts';
import { audit } from '../audit/audit.service.ts';
import {
  type BatchRow,
  findBatch,
  listBatches,
  listBatchPayouts,
  listBatchVersions,
  lockBatchBuilding,
  parseBatchInputs,
  readNextChangeIndex,
  replaceBatchTransaction,
  storeSignedBatch,
  summarizeBatchRefunds,
  takeChangeIndex,
} from './payouts-onchain.repo.ts';
import {
  advanceBatch,
  estimateFeeRate,
  type Log,
  type OnchainPayoutDeps,
  psbtForOperator,
  runOnchainPayouts,
} from './payouts-onchain.service.ts';
import { getOnchainWalletSummary, listWalletCoins, loadPayoutWallet } from './payouts-onchain-wallet.service.ts';

// Back office's hands on the on-chain payouts: the batches, the operator's PSBT and its signed
// return, running the pass now, and raising a stuck batch's fee.

/**
 * Back office runs the on-chain payout pass now rather than at the next interval (once the
 * wallet is funded, say); the same pass as the job's, under the same lock. Audit-logged, and a
 * batch it builds names the caller; answers the wallet as the run left it.
 */
export async function runOnchainPayoutsNow(
  ctx: RequestContext,
  deps: OnchainPayoutDeps,
  log: Log,
): Promise<OnchainWalletSummary> {
  await audit(ctx, deps.db, 'back_office.onchain_payouts_run');
  await runOnchainPayouts(ctx, deps, log);
  return getOnchainWalletSummary(deps);
}

/** A batch as back office sees it; `replaced` are the txids its fee bumps replaced. */
async function toPublicBatch(db: Db, batch: BatchRow, replaced: readonly string[]): Promise<OnchainPayoutBatch> {
  const payouts = await listBatchPayouts(db, batch.id, { includeSent: true });
  const refunds = await summarizeBatchRefunds(db, batch.id);
  return {
    id: batch.id,
    createdAt: batch.created_at.toISOString(),
    state: batch.state,
    txid: batch.txid,
    outputs: payouts.length + refunds.count,
    amountSats: Number(payouts.reduce((sum, payout) => sum + payout.amountMsat, 0n) / 1000n + refunds.sats),
    feeSats: Number(batch.fee_sats),
    vsize: batch.vsize,
    confirmations: batch.confirmations,
    attempts: batch.attempts,
    lastError: batch.last_error,
    feeRate: Number(BigInt(batch.fee_rate_sat_per_kvb) / 1000n),
    replacedTxids: [...replaced],
    replaceable: isReplaceable(batch),
  };
}

/** No block has the batch's transaction: a replacement may still take its place. */
function isReplaceable(batch: BatchRow): boolean {
  return batch.state !== 'confirmed' && batch.block_height === null;
}

async function publicBatch(db: Db, batch: BatchRow): Promise<OnchainPayoutBatch> {
  const versions = await listBatchVersions(db, [batch.id]);
  return toPublicBatch(
    db,
    batch,
    versions.map((version) => version.txid),
  );
}

/** Back office's list of on-chain payout batches, newest first. */
export async function listOnchainBatches(deps: Pick<OnchainPayoutDeps, 'db'>): Promise<OnchainPayoutBatch[]> {
  const batches = await listBatches(deps.db, 100);
  const versions = await listBatchVersions(
    deps.db,
    batches.map((batch) => batch.id),
  );
  const answer: OnchainPayoutBatch[] = [];
  for (const batch of batches) {
    const replaced = versions.filter((version) => version.batchId === batch.id).map((version) => version.txid);
    answer.push(await toPublicBatch(deps.db, batch, replaced));
  }
  return answer;
}

async function requireBatch(db: Db, id: string): Promise<BatchRow> {
  const batch = await findBatch(db, id);
  if (!batch) throw new AppError('NotFound', 'No such on-chain payout batch');
  return batch;
}

/** The batch's PSBT (BIP 174, binary) for the operator's wallet; the download is audit-logged. */
export async function exportBatchPsbt(
  ctx: RequestContext,
  deps: Pick<OnchainPayoutDeps, 'db'>,
  id: string,
): Promise<{ psbt: Uint8Array; fileName: string }> {
  const batch = await requireBatch(deps.db, id);
  await audit(ctx, deps.db, 'back_office.onchain_batch_downloaded', {
    target: `onchain_batch:${batch.id}`,
    after: { txid: batch.txid },
  });
  return { psbt: base64.decode(batch.psbt), fileName: `payout-batch-${batch.txid.slice(0, 12)}.psbt` };
}

/**
 * The operator's signed PSBT (or raw transaction) for a batch waiting for it: checked to be that
 * very transaction, stored, then broadcast at once (the job retries it if the chain refuses).
 */
export async function submitSignedBatch(
  ctx: RequestContext,
  deps: OnchainPayoutDeps,
  id: string,
  signed: string,
  log: Log,
): Promise<OnchainPayoutBatch> {
  const batch = await requireBatch(deps.db, id);
  if (batch.state !== 'awaiting_signature') {
    throw new AppError('BatchNotAwaitingSignature', 'This batch is not waiting for a signature');
  }
  let rawTx: string;
  try {
    rawTx = acceptSignedBatch(batch.psbt, signed);
  } catch (error) {
    if (error instanceof SignedBatchError) throw new AppError('InvalidInput', error.message);
    throw error;
  }
  if (!(await storeSignedBatch(deps.db, batch.id, rawTx))) {
    throw new AppError('BatchNotAwaitingSignature', 'This batch is not waiting for a signature');
  }
  await audit(ctx, deps.db, 'back_office.onchain_batch_signed', {
    target: `onchain_batch:${batch.id}`,
    after: { txid: batch.txid },
  });
  await advanceBatch(deps, await requireBatch(deps.db, id), log);
  return publicBatch(deps.db, await requireBatch(deps.db, id));
}

/**
 * Raises the fee of a batch no block has taken yet (stuck at too low a fee, or refused for it):
 * a replacement (BIP 125) pays the same organizations from the same coins, and more of the
 * wallet's confirmed coins if its change cannot pay the difference, at `feeRate` sat/vB (the
 * current estimate when not given), or the lowest rate Bitcoin Core relays in its place if that
 * is more. The transaction replaced is kept: until a block takes one of them, either may be
 * mined, and the payout run takes whichever was. With a hot wallet the replacement is signed and
 * broadcast at once; without, it waits for the operator's signature like a new batch. Audit-logged.
 */
export async function bumpBatchFee(
  ctx: RequestContext,
  deps: OnchainPayoutDeps,
  id: string,
  feeRate: number | undefined,
  log: Log,
): Promise<OnchainPayoutBatch> {
  const wallet = await loadPayoutWallet(deps);
  if (!wallet) throw new AppError('NotFound', 'No such on-chain payout batch');
  const rate = BigInt(feeRate ?? Math.ceil(await estimateFeeRate(deps, log)));
  await deps.db.transaction().execute(async (trx) => {
    await lockBatchBuilding(trx);
    const batch = await findBatch(trx, id, { lock: true });
    if (!batch) throw new AppError('NotFound', 'No such on-chain payout batch');
    if (!isReplaceable(batch)) throw new AppError('BatchNotReplaceable', 'A block has this batch already');
    const payouts = await listBatchPayouts(trx, batch.id, { includeSent: true });
    const changeIndex = batch.change_index ?? (await readNextChangeIndex(trx, wallet.id));
    let built: BuiltBatch;
    try {
      built = buildReplacement({
        account: wallet.account,
        origin: wallet.origin,
        network: deps.config.chain.network,
        psbt: batch.psbt,
        recipients: payouts.length + (await summarizeBatchRefunds(trx, batch.id)).count,
        inputs: parseBatchInputs(batch.inputs),
        spare: (await listWalletCoins(deps, trx, wallet)).confirmed,
        feeSats: BigInt(batch.fee_sats),
        vsize: batch.vsize,
        feeRate: rate,
        changeIndex,
      });
    } catch (error) {
      if (!(error instanceof InsufficientFundsError || error instanceof RangeError)) throw error;
      throw new AppError('BatchFeeNotCovered', 'The platform wallet cannot pay a higher fee for this batch');
    }
    if (batch.change_index === null && built.changeAddress !== null) await takeChangeIndex(trx, wallet.id, changeIndex);
    await replaceBatchTransaction(trx, batch, {
      ...built,
      state: wallet.signer ? 'signed' : 'awaiting_signature',
      psbt: wallet.signer ? built.psbt : await psbtForOperator(deps, built),
      rawTx: wallet.signer ? signBatch(built.psbt, wallet.signer, built.inputs) : null,
      feeRate: (built.feeSats + BigInt(built.vsize) - 1n) / BigInt(built.vsize),
      changeIndex: built.changeAddress === null ? null : changeIndex,
      payoutFeesMsat: splitFee(built.feeSats, payouts.length).map((sats) => sats * 1000n),
    });
    await audit(ctx, trx, 'back_office.onchain_batch_fee_bumped', {
      target: `onchain_batch:${batch.id}`,
      before: { txid: batch.txid, feeSats: batch.fee_sats },
      after: { txid: built.txid, feeSats: built.feeSats.toString() },
    });
  });
  await advanceBatch(deps, await requireBatch(deps.db, id), log);
  return publicBatch(deps.db, await requireBatch(deps.db, id));
}
