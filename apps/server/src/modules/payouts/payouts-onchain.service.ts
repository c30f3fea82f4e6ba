import { AppError } from '@rayo/shared';
import { type ChainBackend, ChainBackendError, confirmationsAt } from '../../adapters/chain/types.ts';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/database.ts';
import {
  type BuiltBatch,
  buildBatch,
  chooseRecipients,
  feeRateFromEstimate,
  InsufficientFundsError,
  planRecipients,
  type Recipient,
  signBatch,
  splitFee,
  type WalletUtxo,
  withPreviousTransactions,
} from '../../domain/onchain-batch.ts';
import { retryDelaySeconds } from '../../domain/payout-state.ts';
import type { ActorContext } from '../../http/request-context.ts';
import { payoutsSent } from '../../metrics.ts';
import { audit } from '../audit/audit.service.ts';
import { notifyBackOffice } from '../notifications/notifications.service.ts';
import { chargeRefundsToOnchainPayout, lockOnchainRefundsOwed } from '../refunds/refund-charges.service.ts';
import { findPayoutDestinationHolds } from '../settings/payout-destination-holds.service.ts';
import { recordFailedPayoutAttempt, retryPolicy } from './payouts.service.ts';
import {
  adoptBatchVersion,
  type BatchRow,
  countUnsentBatches,
  insertBatch,
  listBatchPayouts,
  listBatchVersions,
  listOpenBatches,
  listUnpaidOnchainShares,
  lockBatchBuilding,
  markBatchOnChain,
  type NewBatch,
  parseBatchInputs,
  readNextChangeIndex,
  recordBatchFailure,
  takeChangeIndex,
  UNSENT_BATCH_STATES,
  type UnpaidOnchainShare,
} from './payouts-onchain.repo.ts';
import { listOnchainDebts, type OnchainWait, replaceOnchainWaits } from './payouts-onchain-wallet.repo.ts';
import { listWalletCoins, loadPayoutWallet, type PayoutWallet } from './payouts-onchain-wallet.service.ts';

export type { BatchRow };

export type OnchainPayoutDeps = { db: Db; config: Config; chain: ChainBackend };
export type Log = {
  warn: (details: object, message: string) => void;
  info: (details: object, message: string) => void;
  debug: (details: object, message: string) => void;
};

/** The fee estimate asked for: confirmation within about an hour. */
const FEE_TARGET_BLOCKS = 6;
/** A batch this deep is final: the job stops following it. */
export const FINAL_CONFIRMATIONS = 6;

/**
 * The PSBT for the operator's wallet, with each input's previous transaction from the chain
 * (hardware wallets refuse a segwit input without it).
 */
export async function psbtForOperator(deps: OnchainPayoutDeps, built: BuiltBatch): Promise<string> {
  const previous = new Map<string, string>();
  for (const input of built.inputs) {
    if (previous.has(input.txid)) continue;
    const raw = await deps.chain.getRawTransaction(input.txid);
    if (raw === null) throw new ChainBackendError(`The chain does not have ${input.txid}, which the batch spends`);
    previous.set(input.txid, raw);
  }
  return withPreviousTransactions(built.psbt, previous);
}

/**
 * The chain source's estimate for FEE_TARGET_BLOCKS, or CHAIN_FALLBACK_FEE_RATE when it has none
 * (Esplora answers `{}` while its node cannot estimate): the run goes on rather than fail.
 */
export async function estimateFeeRate(deps: OnchainPayoutDeps, log: Log): Promise<number> {
  const estimate = await deps.chain.estimateFeeRate(FEE_TARGET_BLOCKS);
  if (estimate !== null) return estimate;
  const fallback = deps.config.chain.fallbackFeeRate;
  log.info({ feeRate: fallback }, 'the chain source has no fee estimate; the batch pays CHAIN_FALLBACK_FEE_RATE');
  return fallback;
}

type Due = Recipient & { oldest: Date; shares: UnpaidOnchainShare[]; refundIds: string[] };
type OwedRefund = { id: string; organizationId: string; amountMsat: bigint };

/**
 * The organizations that may be paid now, each with its shares, owed whole sats and oldest share.
 * What an organization is owed is its shares less the on-chain parts of its refunds no on-chain
 * payout has taken yet (decision 0057), which its next payout takes.
 */
function groupDue(
  shares: readonly UnpaidOnchainShare[],
  refunds: readonly OwedRefund[],
  minSats: bigint,
): { due: Due[]; belowMinimum: Due[] } {
  const byOrganization = new Map<
    string,
    { destination: string; owedMsat: bigint; shares: UnpaidOnchainShare[]; refundIds: string[] }
  >();
  for (const share of shares) {
    const entry = byOrganization.get(share.organizationId) ?? {
      destination: share.destination,
      owedMsat: 0n,
      shares: [],
      refundIds: [],
    };
    entry.owedMsat += share.onchainMsat;
    entry.shares.push(share);
    byOrganization.set(share.organizationId, entry);
  }
  for (const refund of refunds) {
    const entry = byOrganization.get(refund.organizationId);
    if (!entry) continue;
    entry.owedMsat -= refund.amountMsat;
    entry.refundIds.push(refund.id);
  }
  const all = [...byOrganization].map(([organizationId, entry]) => ({ organizationId, ...entry }));
  const payable = new Set(planRecipients(all, minSats).map((recipient) => recipient.organizationId));
  const withAge = all
    .map((entry) => ({
      organizationId: entry.organizationId,
      destination: entry.destination,
      sats: entry.owedMsat > 0n ? entry.owedMsat / 1000n : 0n,
      shares: entry.shares,
      refundIds: entry.refundIds,
      // listUnpaidOnchainShares gives each organization's shares oldest first.
      oldest: (entry.shares[0] as UnpaidOnchainShare).settledAt,
    }))
    // Oldest debt first (docs/decisions/0037-on-chain-payouts.md): whoever has waited longest is paid first.
    .sort((a, b) => a.oldest.getTime() - b.oldest.getTime() || a.organizationId.localeCompare(b.organizationId));
  return {
    due: withAge.filter((entry) => payable.has(entry.organizationId)),
    belowMinimum: withAge.filter((entry) => !payable.has(entry.organizationId)),
  };
}

/**
 * The recipients the wallet's confirmed coins can pay, and the batch paying them; recipients that
 * do not fit wait. `chooseRecipients` estimates the fee from above, so the build rarely fails; when
 * it does, the newest recipient taken waits too and the build is tried again.
 */
function buildForCoverable(
  wallet: PayoutWallet,
  due: readonly Due[],
  coins: readonly WalletUtxo[],
  feeRate: bigint,
  changeIndex: number,
  network: OnchainPayoutDeps['config']['chain']['network'],
): { built: BuiltBatch | null; paid: Due[]; waiting: Due[] } {
  const { paid: chosen } = chooseRecipients(due, coins, feeRate);
  const paid = due.filter((entry) => chosen.some((recipient) => recipient.organizationId === entry.organizationId));
  while (paid.length > 0) {
    try {
      const built = buildBatch({
        account: wallet.account,
        origin: wallet.origin,
        utxos: coins,
        recipients: paid,
        feeRate,
        changeIndex,
        network,
      });
      return { built, paid, waiting: due.filter((entry) => !paid.includes(entry)) };
    } catch (error) {
      if (!(error instanceof InsufficientFundsError)) throw error;
      paid.pop();
    }
  }
  return { built: null, paid: [], waiting: [...due] };
}

/**
 * A built batch as it is stored: signed at once by a hot wallet, else a PSBT for the operator;
 * its change index is taken only when it has change.
 */
async function takeBatchTransaction(
  deps: OnchainPayoutDeps,
  trx: Db,
  wallet: PayoutWallet,
  built: BuiltBatch,
  feeRate: bigint,
  changeIndex: number,
): Promise<Omit<NewBatch, 'payouts'>> {
  if (built.changeAddress !== null) await takeChangeIndex(trx, wallet.id, changeIndex);
  return {
    state: wallet.signer ? 'signed' : 'awaiting_signature',
    txid: built.txid,
    psbt: wallet.signer ? built.psbt : await psbtForOperator(deps, built),
    rawTx: wallet.signer ? signBatch(built.psbt, wallet.signer, built.inputs) : null,
    feeSats: built.feeSats,
    feeRate,
    vsize: built.vsize,
    inputs: built.inputs,
    changeAddress: built.changeAddress,
    changeIndex: built.changeAddress === null ? null : changeIndex,
    changeSats: built.changeSats,
  };
}

/**
 * Builds this run's batch and says who waits and why. Organizations are paid oldest debt first,
 * as many as the wallet's confirmed coins cover; the others wait ('wallet_funds'), as do those
 * below the minimum, those whose address changed recently, those without an address or blocked,
 * and everyone while an earlier batch has not reached the chain. Batch, payouts, the shares they
 * carry and the waits are written in one database transaction before anything is broadcast; an
 * organization that begins waiting for funds raises one back-office notification. A batch built
 * is audited under `ctx` (the pass, or back office running it now). Null when nothing is built.
 */
export async function buildOnchainBatch(
  ctx: ActorContext,
  deps: OnchainPayoutDeps,
  log: Log,
): Promise<BatchRow | null> {
  const wallet = await loadPayoutWallet(deps);
  const network = deps.config.chain.network;
  return deps.db.transaction().execute(async (trx) => {
    await lockBatchBuilding(trx);
    const waits: OnchainWait[] = [];
    const wait = (organizationId: string, reason: OnchainWait['reason'], owedSats: bigint) => {
      if (owedSats > 0n) waits.push({ organizationId, reason, owedSats });
    };
    for (const debt of await listOnchainDebts(trx)) {
      if (debt.blocked) wait(debt.organizationId, 'blocked', debt.owedMsat / 1000n);
      else if (!debt.hasAddress) wait(debt.organizationId, 'no_address', debt.owedMsat / 1000n);
      else if (!wallet) wait(debt.organizationId, 'no_wallet', debt.owedMsat / 1000n);
    }
    let coins: WalletUtxo[] = [];
    const finish = async (batch: BatchRow | null) => {
      const startedWaiting = await replaceOnchainWaits(trx, waits);
      const heldSats = coins.reduce((sum, coin) => sum + coin.valueSats, 0n);
      for (const organizationId of startedWaiting) {
        const owed = waits.find((entry) => entry.organizationId === organizationId)?.owedSats ?? 0n;
        await notifyBackOffice(trx, {
          organizationId,
          kind: 'payout.waiting_funds',
          payload: { owedSats: owed.toString(), walletSats: heldSats.toString() },
        });
      }
      return batch;
    };
    if (!wallet) return finish(null);

    const unpaid = await listUnpaidOnchainShares(trx);
    // An on-chain address that changed waits, like a Lightning address (findPayoutDestinationHolds).
    const held = await findPayoutDestinationHolds(trx, 'onchain', [
      ...new Set(unpaid.map((share) => share.organizationId)),
    ]);
    const { due, belowMinimum } = groupDue(
      unpaid.filter((share) => !held.has(share.organizationId)),
      await lockOnchainRefundsOwed(trx),
      deps.config.chain.payoutMinSats,
    );
    for (const organizationId of held.keys()) {
      const owedMsat = unpaid
        .filter((share) => share.organizationId === organizationId)
        .reduce((sum, share) => sum + share.onchainMsat, 0n);
      wait(organizationId, 'destination_hold', owedMsat / 1000n);
    }
    for (const entry of belowMinimum) wait(entry.organizationId, 'below_minimum', entry.sats);
    if (due.length === 0) return finish(null);
    // Its shares and coins are the earlier batch's until the chain has it.
    if ((await countUnsentBatches(trx)) > 0) {
      for (const entry of due) wait(entry.organizationId, 'batch_pending', entry.sats);
      return finish(null);
    }

    coins = (await listWalletCoins(deps, trx, wallet)).confirmed;
    const feeRate = feeRateFromEstimate(await estimateFeeRate(deps, log));
    // A change index is taken only by a batch written with change there, so runs that cannot
    // pay leave no unused change addresses for a restored wallet to skip past.
    const changeIndex = await readNextChangeIndex(trx, wallet.id);
    const { built, paid, waiting } = buildForCoverable(wallet, due, coins, feeRate, changeIndex, network);
    for (const entry of waiting) wait(entry.organizationId, 'wallet_funds', entry.sats);
    if (waiting.length > 0) {
      log.warn(
        {
          waitingSats: waiting.reduce((sum, entry) => sum + entry.sats, 0n).toString(),
          heldSats: coins.reduce((sum, coin) => sum + coin.valueSats, 0n).toString(),
          waiting: waiting.length,
          paid: paid.length,
        },
        'the platform wallet cannot cover every on-chain payout due; the others wait for funds',
      );
    }
    if (!built) return finish(null);
    const fees = splitFee(built.feeSats, paid.length);
    const { batch, payoutIds } = await insertBatch(trx, {
      ...(await takeBatchTransaction(deps, trx, wallet, built, feeRate, changeIndex)),
      payouts: paid.map((recipient, index) => ({
        organizationId: recipient.organizationId,
        destination: recipient.destination,
        amountMsat: recipient.sats * 1000n,
        feeMsat: (fees[index] as bigint) * 1000n,
        shares: recipient.shares,
      })),
    });
    for (const [index, recipient] of paid.entries()) {
      await chargeRefundsToOnchainPayout(trx, recipient.refundIds, payoutIds[index] as string);
    }
    await audit(ctx, trx, 'payout.onchain_batch_built', {
      target: `onchain_payout_batch:${batch.id}`,
      after: {
        txid: batch.txid,
        state: batch.state,
        organizations: paid.map((recipient) => recipient.organizationId),
        sats: paid.reduce((sum, recipient) => sum + recipient.sats, 0n).toString(),
        feeSats: built.feeSats.toString(),
      },
    });
    return finish(batch);
  });
}

/**
 * The platform wallet's transaction sending an on-chain refund of `sats` to `address` (decision
 * 0063): a batch without payouts, written in the caller's transaction, which holds the
 * batch-building lock (lockBatchBuilding) and records the refund with it before anything is
 * broadcast. `advanceBatch` sends it as it sends payout batches, asking the chain for its txid
 * first. Confirmed coins an unsent batch spends are left to that batch. Throws
 * OnchainRefundUnavailable when there is no wallet, no usable fee rate or not enough coins.
 */
export async function buildRefundBatch(
  deps: OnchainPayoutDeps,
  trx: Db,
  refund: { organizationId: string; address: string; sats: bigint },
  log: Log,
): Promise<BatchRow> {
  const unavailable = (message: string) => new AppError('OnchainRefundUnavailable', message);
  const wallet = await loadPayoutWallet(deps);
  if (!wallet) throw unavailable('This platform has no on-chain wallet to send refunds from');
  const taken = new Set(
    (await listOpenBatches(trx))
      .filter((batch) => UNSENT_BATCH_STATES.includes(batch.state))
      .flatMap((batch) => parseBatchInputs(batch.inputs).map((coin) => `${coin.txid}:${coin.vout}`)),
  );
  const coins = (await listWalletCoins(deps, trx, wallet)).confirmed.filter(
    (coin) => !taken.has(`${coin.txid}:${coin.vout}`),
  );
  let feeRate: bigint;
  let built: BuiltBatch;
  const changeIndex = await readNextChangeIndex(trx, wallet.id);
  try {
    feeRate = feeRateFromEstimate(await estimateFeeRate(deps, log));
    built = buildBatch({
      account: wallet.account,
      origin: wallet.origin,
      utxos: coins,
      recipients: [{ organizationId: refund.organizationId, destination: refund.address, sats: refund.sats }],
      feeRate,
      changeIndex,
      network: deps.config.chain.network,
    });
  } catch (error) {
    if (error instanceof InsufficientFundsError) {
      throw unavailable("The platform wallet's confirmed coins cannot pay this refund and its fee now");
    }
    if (error instanceof RangeError) throw unavailable('The chain source gives no usable fee rate now');
    throw error;
  }
  const { batch } = await insertBatch(trx, {
    ...(await takeBatchTransaction(deps, trx, wallet, built, feeRate, changeIndex)),
    payouts: [],
  });
  return batch;
}

/** Records the batch seen on the chain, counting the payouts it marked sent. */
async function recordBatchOnChain(db: Db, id: string, seen: Parameters<typeof markBatchOnChain>[2]): Promise<void> {
  payoutsSent.inc({ rail: 'onchain' }, await markBatchOnChain(db, id, seen));
}

/**
 * Moves one batch on. The chain is asked about its txid first, so a batch broadcast by a process
 * that died before recording it is found, not sent again (and a new one is never built while it
 * is unknown). A signed batch the chain does not have is broadcast; a PSBT waits for the operator.
 */
export async function advanceBatch(deps: OnchainPayoutDeps, batch: BatchRow, log: Log): Promise<void> {
  const status = await deps.chain.getTransactionStatus(batch.txid);
  if (status) {
    await recordDepth(deps, batch.id, status.blockHeight);
    return;
  }
  // A transaction a fee bump replaced may be the one a block took (first, or because the node
  // refused the replacement): the batch is settled with it.
  for (const version of await listBatchVersions(deps.db, [batch.id])) {
    const earlier = await deps.chain.getTransactionStatus(version.txid);
    if (earlier?.blockHeight == null) continue;
    const payouts = await listBatchPayouts(deps.db, batch.id, { includeSent: true });
    const fees = splitFee(version.feeSats, payouts.length).map((sats) => sats * 1000n);
    await adoptBatchVersion(deps.db, batch.id, version.txid, fees);
    log.info({ txid: version.txid, replacement: batch.txid }, 'a block took the transaction the fee bump replaced');
    await recordDepth(deps, batch.id, earlier.blockHeight);
    return;
  }
  if (batch.raw_tx === null || batch.next_attempt_at.getTime() > Date.now()) return;
  try {
    const txid = await deps.chain.broadcastTransaction(batch.raw_tx);
    if (txid !== batch.txid) throw new ChainBackendError(`The chain answered txid ${txid} for ${batch.txid}`);
  } catch (error) {
    if (!(error instanceof ChainBackendError)) throw error;
    await recordBroadcastFailure(deps, batch, error.message, log);
    return;
  }
  log.info({ txid: batch.txid }, 'on-chain payout batch broadcast');
  await recordBatchOnChain(deps.db, batch.id, { blockHeight: null, confirmations: 0, final: false });
}

/** The chain has the batch's transaction at `blockHeight` (null: in the mempool): payouts sent, depth kept. */
async function recordDepth(deps: OnchainPayoutDeps, batchId: string, blockHeight: number | null): Promise<void> {
  const confirmations = confirmationsAt(await deps.chain.getTipHeight(), blockHeight);
  await recordBatchOnChain(deps.db, batchId, {
    blockHeight,
    confirmations,
    final: confirmations >= FINAL_CONFIRMATIONS,
  });
}

/**
 * A failed broadcast: the batch is retried with the payouts' backoff, and each of its payouts
 * counts the failed attempt; at the policy's count back office hears of each (payout.failed, as
 * for Lightning).
 */
async function recordBroadcastFailure(deps: OnchainPayoutDeps, batch: BatchRow, message: string, log: Log) {
  const error = message.slice(0, 500);
  const retryInSeconds = retryDelaySeconds(batch.attempts + 1, retryPolicy(deps.config));
  await recordBatchFailure(deps.db, batch.id, error, retryInSeconds);
  log.warn(
    { txid: batch.txid, attempts: batch.attempts + 1, error },
    'on-chain payout batch broadcast failed; it is tried again later',
  );
  for (const payout of await listBatchPayouts(deps.db, batch.id)) await recordFailedPayoutAttempt(deps, payout, error);
}

/** The on-chain payout pass: open batches first (each checked against the chain), then this run's batch. */
export async function runOnchainPayouts(ctx: ActorContext, deps: OnchainPayoutDeps, log: Log): Promise<void> {
  for (const batch of await listOpenBatches(deps.db)) await advanceBatch(deps, batch, log);
  const built = await buildOnchainBatch(ctx, deps, log);
  if (built) await advanceBatch(deps, built, log);
}

/**
 * Holds, until the caller's transaction ends, the one lock under which batches are built, so that
 * a refund's batch and the payout pass never build at once.
 */
export async function lockPayoutBatchBuilding(trx: Db): Promise<void> {
  await lockBatchBuilding(trx);
}
