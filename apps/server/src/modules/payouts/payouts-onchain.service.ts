import { randomBytes } from 'node:crypto';
import { AppError, type OnchainPayoutBatch } from '@rayo/shared';
import { base64 } from '@scure/base';
import { HDKey } from '@scure/bip32';
import { type ChainBackend, ChainBackendError, confirmationsAt } from '../../adapters/chain/types.ts';
import { storeSecretOnce } from '../../adapters/lightning/devnet.repo.ts';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/database.ts';
import {
  acceptSignedBatch,
  type BuiltBatch,
  buildBatch,
  feeRateFromEstimate,
  InsufficientFundsError,
  type KeyOrigin,
  planRecipients,
  SignedBatchError,
  signBatch,
  splitFee,
  type WalletUtxo,
  withPreviousTransactions,
} from '../../domain/onchain-batch.ts';
import {
  deriveWalletAddress,
  maskExtendedKey,
  parseExtendedPrivateKey,
  parseExtendedPublicKey,
  walletId,
} from '../../domain/onchain-wallet.ts';
import { retryDelaySeconds } from '../../domain/payout-state.ts';
import { insertAuditEntry } from '../audit/audit.repo.ts';
import type { AccessClaims } from '../auth/tokens.ts';
import { findPayoutDestinationHolds } from '../settings/payout-destination-changes.service.ts';
import { recordFailedPayoutAttempt, retryPolicy } from './payouts.service.ts';
import {
  type BatchRow,
  countUnsentBatches,
  findBatch,
  insertBatch,
  listBatches,
  listBatchPayouts,
  listFundedWalletAddresses,
  listOpenBatches,
  listUnpaidOnchainShares,
  lockBatchBuilding,
  markBatchOnChain,
  readNextChangeIndex,
  recordBatchFailure,
  storeSignedBatch,
  takeChangeIndex,
} from './payouts-onchain.repo.ts';

export type OnchainPayoutDeps = { db: Db; config: Config; chain: ChainBackend };
type Log = {
  warn: (details: object, message: string) => void;
  info: (details: object, message: string) => void;
  debug: (details: object, message: string) => void;
};

/** The fee estimate asked for: confirmation within about an hour. */
const FEE_TARGET_BLOCKS = 6;
/** A batch this deep is final: the job stops following it. */
export const FINAL_CONFIRMATIONS = 6;
const DEVNET_SEED_SECRET = 'devnet_chain_seed';
const HARDENED = 0x80000000;

/** The platform wallet as the payout batch sees it; `signer` is the hot wallet, when there is one. */
type PayoutWallet = { account: HDKey; id: string; origin: KeyOrigin; signer: HDKey | undefined };

function parseOrigin(text: string): KeyOrigin {
  const [fingerprint, ...steps] = text.split('/');
  return {
    fingerprint: Number.parseInt(fingerprint as string, 16),
    path: steps.map((step) => (/['hH]$/.test(step) ? Number.parseInt(step, 10) + HARDENED : Number.parseInt(step, 10))),
  };
}

/**
 * CHAIN_XPUB's account, signed for by CHAIN_PAYOUT_XPRV when that is set (and is the same
 * account); on devnet without CHAIN_XPUB, the devnet seed's account, which signs (the devnet hot
 * wallet). Undefined when there is no platform wallet: no on-chain payouts then.
 */
async function payoutWallet(deps: Pick<OnchainPayoutDeps, 'db' | 'config'>): Promise<PayoutWallet | undefined> {
  const { xpub, network, payoutXprv, xpubOrigin } = deps.config.chain;
  if (xpub !== undefined) {
    const parsed = parseExtendedPublicKey(xpub, network);
    if (!parsed.valid) throw new Error(`CHAIN_XPUB ${maskExtendedKey(xpub)} is not usable: ${parsed.reason}`);
    const account = parsed.key;
    let signer: HDKey | undefined;
    if (payoutXprv !== undefined) {
      signer = parseExtendedPrivateKey(payoutXprv);
      if (!signer || signer.publicExtendedKey === undefined || signer.identifier === undefined) {
        throw new Error('CHAIN_PAYOUT_XPRV is not an extended private key');
      }
      if (Buffer.compare(Buffer.from(signer.publicKey as Uint8Array), Buffer.from(account.publicKey as Uint8Array))) {
        throw new Error('CHAIN_PAYOUT_XPRV is not the private key of CHAIN_XPUB');
      }
    }
    const origin = xpubOrigin ? parseOrigin(xpubOrigin) : { fingerprint: account.fingerprint, path: [] };
    return { account, id: walletId(account), origin, signer };
  }
  if (deps.config.chain.backend !== 'devnet') return undefined;
  const seed = Buffer.from(await storeSecretOnce(deps.db, DEVNET_SEED_SECRET, randomBytes(32).toString('hex')), 'hex');
  const master = HDKey.fromMasterSeed(seed);
  const path = [84 + HARDENED, 1 + HARDENED, HARDENED];
  const account = path.reduce((key, step) => key.deriveChild(step), master);
  return { account, id: walletId(account), origin: { fingerprint: master.fingerprint, path }, signer: account };
}

/**
 * The wallet's confirmed unspent outputs, from the chain, at the addresses it may have been paid
 * at. Unconfirmed ones wait: a batch spending the change of one still in the mempool would be
 * lost with it if that one were replaced by a fee bump, or never confirmed.
 */
async function listWalletUtxos(deps: OnchainPayoutDeps, trx: Db, wallet: PayoutWallet): Promise<WalletUtxo[]> {
  const utxos: WalletUtxo[] = [];
  for (const known of await listFundedWalletAddresses(trx, wallet.id)) {
    // An address of another account (CHAIN_XPUB changed since) has no key here.
    if (deriveWalletAddress(wallet.account, known.change, known.index, deps.config.chain.network) !== known.address) {
      continue;
    }
    for (const output of await deps.chain.listAddressUtxos(known.address)) {
      if (output.blockHeight === null) continue;
      utxos.push({ ...output, address: known.address, change: known.change, index: known.index });
    }
  }
  return utxos;
}

/**
 * The PSBT for the operator's wallet, with each input's previous transaction from the chain
 * (hardware wallets refuse a segwit input without it).
 */
async function psbtForOperator(deps: OnchainPayoutDeps, built: BuiltBatch): Promise<string> {
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
async function estimateFeeRate(deps: OnchainPayoutDeps, log: Log): Promise<number> {
  const estimate = await deps.chain.estimateFeeRate(FEE_TARGET_BLOCKS);
  if (estimate !== null) return estimate;
  const fallback = deps.config.chain.fallbackFeeRate;
  log.info({ feeRate: fallback }, 'the chain source has no fee estimate; the batch pays CHAIN_FALLBACK_FEE_RATE');
  return fallback;
}

/**
 * Builds this run's batch, when no earlier one is still waiting to reach the chain: every
 * organization due gets one output, and batch, payouts and the shares they carry are written in
 * one database transaction before anything is broadcast. Null when nothing is built.
 */
export async function buildOnchainBatch(deps: OnchainPayoutDeps, log: Log): Promise<BatchRow | null> {
  const wallet = await payoutWallet(deps);
  if (!wallet) return null;
  const network = deps.config.chain.network;
  return deps.db.transaction().execute(async (trx) => {
    await lockBatchBuilding(trx);
    if ((await countUnsentBatches(trx)) > 0) return null;
    const unpaid = await listUnpaidOnchainShares(trx);
    // An on-chain address that changed waits, like a Lightning address (findPayoutDestinationHolds).
    const held = await findPayoutDestinationHolds(trx, 'onchain', [
      ...new Set(unpaid.map((share) => share.organizationId)),
    ]);
    const shares = unpaid.filter((share) => !held.has(share.organizationId));
    const byOrganization = new Map<string, { destination: string; owedMsat: bigint; shares: typeof shares }>();
    for (const share of shares) {
      const entry = byOrganization.get(share.organizationId) ?? {
        destination: share.destination,
        owedMsat: 0n,
        shares: [],
      };
      entry.owedMsat += share.onchainMsat;
      entry.shares.push(share);
      byOrganization.set(share.organizationId, entry);
    }
    const recipients = planRecipients(
      [...byOrganization].map(([organizationId, entry]) => ({ organizationId, ...entry })),
      deps.config.chain.payoutMinSats,
    );
    if (recipients.length === 0) return null;
    const utxos = await listWalletUtxos(deps, trx, wallet);
    const feeRate = feeRateFromEstimate(await estimateFeeRate(deps, log));
    // A change index is taken only by a batch written with change there, so runs that cannot
    // pay leave no unused change addresses for a restored wallet to skip past.
    const changeIndex = await readNextChangeIndex(trx, wallet.id);
    let built: BuiltBatch;
    try {
      built = buildBatch({
        account: wallet.account,
        origin: wallet.origin,
        utxos,
        recipients,
        feeRate,
        changeIndex,
        network,
      });
    } catch (error) {
      if (!(error instanceof InsufficientFundsError)) throw error;
      const owedSats = recipients.reduce((sum, recipient) => sum + recipient.sats, 0n);
      const heldSats = utxos.reduce((sum, utxo) => sum + utxo.valueSats, 0n);
      log.warn(
        { owedSats: owedSats.toString(), heldSats: heldSats.toString(), organizations: recipients.length },
        'the platform wallet cannot pay the on-chain payouts due; they wait for the next run',
      );
      return null;
    }
    if (built.changeAddress !== null) await takeChangeIndex(trx, wallet.id, changeIndex);
    const fees = splitFee(built.feeSats, recipients.length);
    return insertBatch(trx, {
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
      payouts: recipients.map((recipient, index) => ({
        organizationId: recipient.organizationId,
        destination: recipient.destination,
        amountMsat: recipient.sats * 1000n,
        feeMsat: (fees[index] as bigint) * 1000n,
        shares: byOrganization.get(recipient.organizationId)?.shares ?? [],
      })),
    });
  });
}

/**
 * Moves one batch on. The chain is asked about its txid first, so a batch broadcast by a process
 * that died before recording it is found, not sent again (and a new one is never built while it
 * is unknown). A signed batch the chain does not have is broadcast; a PSBT waits for the operator.
 */
export async function advanceBatch(deps: OnchainPayoutDeps, batch: BatchRow, log: Log): Promise<void> {
  const status = await deps.chain.getTransactionStatus(batch.txid);
  if (status) {
    const confirmations = confirmationsAt(await deps.chain.getTipHeight(), status.blockHeight);
    await markBatchOnChain(deps.db, batch.id, {
      blockHeight: status.blockHeight,
      confirmations,
      final: confirmations >= FINAL_CONFIRMATIONS,
    });
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
  await markBatchOnChain(deps.db, batch.id, { blockHeight: null, confirmations: 0, final: false });
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
  log.warn({ txid: batch.txid, attempts: batch.attempts + 1, error }, 'on-chain payout batch broadcast failed');
  for (const payout of await listBatchPayouts(deps.db, batch.id)) await recordFailedPayoutAttempt(deps, payout, error);
}

/** The on-chain payout pass: open batches first (each checked against the chain), then this run's batch. */
export async function runOnchainPayouts(deps: OnchainPayoutDeps, log: Log): Promise<void> {
  for (const batch of await listOpenBatches(deps.db)) await advanceBatch(deps, batch, log);
  const built = await buildOnchainBatch(deps, log);
  if (built) await advanceBatch(deps, built, log);
}

function toPublicBatch(batch: BatchRow, outputs: number, totalMsat: bigint): OnchainPayoutBatch {
  return {
    id: batch.id,
    createdAt: batch.created_at.toISOString(),
    state: batch.state,
    txid: batch.txid,
    outputs,
    amountSats: Number(totalMsat / 1000n),
    feeSats: Number(batch.fee_sats),
    vsize: batch.vsize,
    confirmations: batch.confirmations,
    attempts: batch.attempts,
    lastError: batch.last_error,
  };
}

/** Back office's list of on-chain payout batches, newest first. */
export async function listOnchainBatches(deps: Pick<OnchainPayoutDeps, 'db'>): Promise<OnchainPayoutBatch[]> {
  const batches = await listBatches(deps.db, 100);
  const answer: OnchainPayoutBatch[] = [];
  for (const batch of batches) {
    const payouts = await listBatchPayouts(deps.db, batch.id, { includeSent: true });
    answer.push(
      toPublicBatch(
        batch,
        payouts.length,
        payouts.reduce((sum, payout) => sum + payout.amountMsat, 0n),
      ),
    );
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
  deps: Pick<OnchainPayoutDeps, 'db'>,
  caller: AccessClaims,
  id: string,
  ip: string,
): Promise<{ psbt: Uint8Array; fileName: string }> {
  const batch = await requireBatch(deps.db, id);
  await insertAuditEntry(deps.db, {
    action: 'back_office.onchain_batch_downloaded',
    actorUserId: caller.userId,
    target: `onchain_batch:${batch.id}`,
    after: { txid: batch.txid },
    ip,
  });
  return { psbt: base64.decode(batch.psbt), fileName: `payout-batch-${batch.txid.slice(0, 12)}.psbt` };
}

/**
 * The operator's signed PSBT (or raw transaction) for a batch waiting for it: checked to be that
 * very transaction, stored, then broadcast at once (the job retries it if the chain refuses).
 */
export async function submitSignedBatch(
  deps: OnchainPayoutDeps,
  caller: AccessClaims,
  id: string,
  signed: string,
  ip: string,
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
  await insertAuditEntry(deps.db, {
    action: 'back_office.onchain_batch_signed',
    actorUserId: caller.userId,
    target: `onchain_batch:${batch.id}`,
    after: { txid: batch.txid },
    ip,
  });
  await advanceBatch(deps, await requireBatch(deps.db, id), log);
  const stored = await requireBatch(deps.db, id);
  const payouts = await listBatchPayouts(deps.db, id, { includeSent: true });
  return toPublicBatch(
    stored,
    payouts.length,
    payouts.reduce((sum, payout) => sum + payout.amountMsat, 0n),
  );
}
