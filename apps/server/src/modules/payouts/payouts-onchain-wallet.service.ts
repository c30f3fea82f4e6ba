import { randomBytes } from 'node:crypto';
import { AppError, type OnchainWaiting, type OnchainWalletSummary } from '@rayo/shared';
import { HDKey } from '@scure/bip32';
import type { ChainBackend } from '../../adapters/chain/types.ts';
import { storeSecretOnce } from '../../adapters/lightning/devnet.repo.ts';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/database.ts';
import type { KeyOrigin, WalletUtxo } from '../../domain/onchain-batch.ts';
import {
  deriveWalletAddress,
  maskExtendedKey,
  parseExtendedPrivateKey,
  parseExtendedPublicKey,
  walletId,
} from '../../domain/onchain-wallet.ts';
import type { RequestContext } from '../../http/request-context.ts';
import { audit } from '../audit/audit.service.ts';
import { allocateWalletIndex } from '../onchain/wallet-indexes.service.ts';
import { listFundedWalletAddresses } from './payouts-onchain.repo.ts';
import {
  findOnchainWait,
  insertDepositAddress,
  listDepositAddresses,
  listOnchainDebts,
  listOnchainWaits,
  readHighestPaidCheckoutIndex,
  readNextReceiveIndex,
  sumOpenOnchainPayouts,
  sumUnpaidOnchainShares,
} from './payouts-onchain-wallet.repo.ts';

export type OnchainWalletDeps = { db: Db; config: Config; chain: ChainBackend };

const DEVNET_SEED_SECRET = 'devnet_chain_seed';
const HARDENED = 0x80000000;

/** The platform wallet as the payout batch sees it; `signer` is the hot wallet, when there is one. */
export type PayoutWallet = { account: HDKey; id: string; origin: KeyOrigin; signer: HDKey | undefined };

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
export async function loadPayoutWallet(
  deps: Pick<OnchainWalletDeps, 'db' | 'config'>,
): Promise<PayoutWallet | undefined> {
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
 * The wallet's unspent outputs, from the chain, at the addresses it may have been paid at:
 * `confirmed` ones a batch may spend, and `unconfirmed` ones that wait (a batch spending the
 * change of one still in the mempool would be lost with it if that one were replaced).
 */
export async function listWalletCoins(
  deps: OnchainWalletDeps,
  db: Db,
  wallet: PayoutWallet,
): Promise<{ confirmed: WalletUtxo[]; unconfirmed: WalletUtxo[] }> {
  const confirmed: WalletUtxo[] = [];
  const unconfirmed: WalletUtxo[] = [];
  const seen = new Set<string>();
  for (const known of await listFundedWalletAddresses(db, wallet.id)) {
    if (seen.has(known.address)) continue;
    seen.add(known.address);
    // An address of another account (CHAIN_XPUB changed since) has no key here.
    if (deriveWalletAddress(wallet.account, known.change, known.index, deps.config.chain.network) !== known.address) {
      continue;
    }
    for (const output of await deps.chain.listAddressUtxos(known.address)) {
      const coin = { ...output, address: known.address, change: known.change, index: known.index };
      (output.blockHeight === null ? unconfirmed : confirmed).push(coin);
    }
  }
  return { confirmed, unconfirmed };
}

function sumSats(coins: readonly WalletUtxo[]): number {
  return Number(coins.reduce((sum, coin) => sum + coin.valueSats, 0n));
}

/**
 * Back office's view of the platform wallet: what is owed on-chain (unpaid shares and payouts not
 * sent), what the wallet holds, who waits and why (as the last run left it), the newest deposit
 * address, and how many receive addresses went out after the last one paid.
 */
export async function getOnchainWalletSummary(deps: OnchainWalletDeps): Promise<OnchainWalletSummary> {
  const wallet = await loadPayoutWallet(deps);
  const debts = await listOnchainDebts(deps.db);
  const open = await sumOpenOnchainPayouts(deps.db);
  const owing = new Set([...debts.map((debt) => debt.organizationId), ...open.map((payout) => payout.organizationId)]);
  // Whole sats per organization, as the batches pay them and the waits count them.
  const owedSats =
    debts.reduce((sum, debt) => sum + debt.owedMsat / 1000n, 0n) +
    open.reduce((sum, payout) => sum + payout.amountMsat / 1000n, 0n);
  const waits = await listOnchainWaits(deps.db);
  const coins = wallet ? await listWalletCoins(deps, deps.db, wallet) : { confirmed: [], unconfirmed: [] };
  const deposits = wallet ? await listDepositAddresses(deps.db, wallet.id) : [];
  return {
    chain: deps.config.chain.backend,
    network: deps.config.chain.network,
    signing: wallet ? (wallet.signer ? 'hot' : 'operator') : null,
    owedSats: Number(owedSats),
    organizationsOwed: owing.size,
    heldSats: sumSats(coins.confirmed),
    unconfirmedSats: sumSats(coins.unconfirmed),
    waitingSats: Number(waits.reduce((sum, wait) => sum + BigInt(wait.owed_sats), 0n)),
    waiting: waits.map((wait) => ({
      organizationId: wait.organization_id,
      organizationName: wait.name,
      owedSats: Number(wait.owed_sats),
      reason: wait.reason,
      since: wait.since.toISOString(),
    })),
    minimumSats: Number(deps.config.chain.payoutMinSats),
    depositAddress: deposits[0]?.address ?? null,
    unusedReceiveAddresses: wallet ? await countUnusedReceiveAddresses(deps, wallet, deposits) : 0,
  };
}

/**
 * Receive addresses handed out after the highest one paid (a checkout's or a deposit's): a wallet
 * restored from the seed finds every payment only if its gap limit is above this.
 */
async function countUnusedReceiveAddresses(
  deps: OnchainWalletDeps,
  wallet: PayoutWallet,
  deposits: ReadonlyArray<{ address: string; derivation_index: number }>,
): Promise<number> {
  let highest = await readHighestPaidCheckoutIndex(deps.db, wallet.id);
  for (const deposit of deposits) {
    if (deposit.derivation_index <= highest) continue;
    if ((await deps.chain.listAddressOutputs(deposit.address)).length > 0) highest = deposit.derivation_index;
  }
  return (await readNextReceiveIndex(deps.db, wallet.id)) - highest - 1;
}

/**
 * A fresh receive address of the platform wallet for back office to fund it from outside (on
 * devnet, the devnet wallet's 'Send on-chain'). Its payments are the platform's own money: no
 * sale is recorded, and the next payout run can spend them once confirmed. Audit-logged.
 */
export async function createDepositAddress(
  ctx: RequestContext,
  deps: Pick<OnchainWalletDeps, 'db' | 'config'>,
): Promise<{ address: string }> {
  const wallet = await loadPayoutWallet(deps);
  if (!wallet) throw new AppError('NotFound', 'This platform has no on-chain wallet (CHAIN_XPUB is not set)');
  return deps.db.transaction().execute(async (trx) => {
    // The counter checkout addresses take theirs from, so no address serves both.
    const index = await allocateWalletIndex(trx, wallet.id);
    const address = deriveWalletAddress(wallet.account, 0, index, deps.config.chain.network);
    await insertDepositAddress(trx, { address, wallet: wallet.id, index, createdBy: ctx.userId });
    await audit(ctx, trx, 'back_office.deposit_address_created', {
      target: `platform_wallet:${wallet.id}`,
      after: { address, index },
    });
    return { address };
  });
}

/**
 * The organization's on-chain shares no payout carries yet, and why they wait: the last run's
 * reason, or `next_run` when no run has looked at them since they came. Null when none wait.
 */
export async function findOnchainWaiting(
  deps: Pick<OnchainWalletDeps, 'db' | 'config'>,
  organizationId: string,
): Promise<OnchainWaiting | null> {
  const owedSats = (await sumUnpaidOnchainShares(deps.db, organizationId)) / 1000n;
  if (owedSats === 0n) return null;
  const wait = await findOnchainWait(deps.db, organizationId);
  return {
    owedSats: Number(owedSats),
    reason: wait?.reason ?? 'next_run',
    since: wait?.since.toISOString() ?? null,
    minimumSats: Number(deps.config.chain.payoutMinSats),
  };
}
