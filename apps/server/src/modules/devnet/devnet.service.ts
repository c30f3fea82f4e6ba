import { randomBytes } from 'node:crypto';
import {
  AppError,
  type DevnetWithdrawLink,
  type LnurlError,
  type LnurlOk,
  type LnurlWithdrawOffer,
} from '@rayo/shared';
import { readDevnetTipHeight } from '../../adapters/chain/devnet.repo.ts';
import { mineDevnetBlocks, sendDevnetPayment } from '../../adapters/chain/devnet.ts';
import { expireDevnetInvoice, payDevnetInvoice } from '../../adapters/lightning/devnet.ts';
import type { LightningBackend } from '../../adapters/lightning/types.ts';
import { redeemLnurlWithdraw } from '../../adapters/lnurl/withdraw-client.ts';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/database.ts';
import { decodeBolt11 } from '../../domain/bolt11.ts';
import { expireInvoiceNow } from '../ledger/settlement.service.ts';
import { claimDevnetWithdrawal, findDevnetWithdrawal, insertDevnetWithdrawal } from './devnet.repo.ts';

export type DevnetDeps = {
  db: Db;
  config: Pick<Config, 'publicUrl' | 'chain' | 'devnetPublic' | 'lnurlAllowPrivateHosts'>;
  lightning: Pick<LightningBackend, 'createInvoice'>;
};
type Log = { debug: (details: object, message: string) => void };

/** LNURL-withdraw's smallest amount: one satoshi. */
const MIN_WITHDRAWABLE_MSAT = 1_000n;
/** Without a limit, a devnet card pays any sale up to one bitcoin. */
const DEFAULT_MAX_MSAT = 100_000_000_000n;

function lnurlError(reason: string): LnurlError {
  return { status: 'ERROR', reason };
}

function withdrawUrl(config: DevnetDeps['config'], k1: string): string {
  return `${config.publicUrl.replace(/\/+$/, '')}/api/devnet/lnurlw/${k1}`;
}

/** Pays a devnet invoice from the devnet wallet page. */
export async function payFromDevnetWallet(
  db: Db,
  paymentRequest: string,
): Promise<{ paymentHash: string; amountMsat: number }> {
  const payment = await payDevnetInvoice(db, paymentRequest);
  return { paymentHash: payment.paymentHash, amountMsat: Number(payment.amountMsat) };
}

/**
 * Lets an unpaid devnet invoice run out now, at the node and in Rayo, as both would at its
 * expiry: what expiry does can be tried without waiting out an invoice's life.
 */
export async function expireDevnetInvoiceEarly(db: Db, paymentRequest: string): Promise<void> {
  await expireInvoiceNow(db, await expireDevnetInvoice(db, paymentRequest));
}

/**
 * A one-time withdraw link in a Bolt Card's own form, `lnurlw://…`, so that pasting it into a
 * terminal goes through the same path as a card tap.
 */
export async function createDevnetWithdrawLink(deps: DevnetDeps, maxMsat?: bigint): Promise<DevnetWithdrawLink> {
  const k1 = randomBytes(32).toString('hex');
  await insertDevnetWithdrawal(deps.db, k1, maxMsat ?? DEFAULT_MAX_MSAT);
  return { lnurl: withdrawUrl(deps.config, k1).replace(/^https?:\/\//, 'lnurlw://') };
}

/**
 * The devnet wallet as someone else's LNURL-withdraw customer (a refund link, say): it makes an
 * invoice of the devnet node for `amountMsat` and asks the link's service to pay it, through the
 * same LUD-03 client as a terminal reading a card. The payment arrives when that service pays.
 */
export async function withdrawToDevnetWallet(
  deps: DevnetDeps,
  input: { lnurl: string; amountMsat: bigint },
  log: Log,
): Promise<{ paymentHash: string }> {
  const invoice = await deps.lightning.createInvoice({
    amountMsat: input.amountMsat,
    description: 'Withdrawn to the devnet wallet',
    expirySeconds: 600,
  });
  await redeemLnurlWithdraw({
    lnurl: input.lnurl,
    paymentRequest: invoice.paymentRequest,
    amountMsat: input.amountMsat,
    allowInsecureLoopback: true,
    allowPrivateAddresses: deps.config.lnurlAllowPrivateHosts,
    trustedOrigin: new URL(deps.config.publicUrl).origin,
    log,
  });
  return { paymentHash: invoice.paymentHash };
}

/** The LUD-03 withdrawRequest a wallet or terminal reads first. */
export async function describeDevnetWithdrawal(deps: DevnetDeps, k1: string): Promise<LnurlWithdrawOffer | LnurlError> {
  const withdrawal = await findDevnetWithdrawal(deps.db, k1);
  if (!withdrawal) return lnurlError('Unknown withdraw link');
  if (withdrawal.usedAt) return lnurlError('This withdraw link was already used');
  return {
    tag: 'withdrawRequest',
    callback: `${withdrawUrl(deps.config, k1)}/callback`,
    k1,
    defaultDescription: 'Rayo devnet Bolt Card',
    minWithdrawable: Number(MIN_WITHDRAWABLE_MSAT),
    maxWithdrawable: Number(withdrawal.maxMsat),
  };
}

/**
 * The LUD-03 callback: pays `pr` and uses up the link, both or neither, so a failed payment leaves
 * the link usable and two racing callbacks pay once.
 */
export async function redeemDevnetWithdrawal(
  deps: DevnetDeps,
  k1: string,
  query: { k1?: string | undefined; pr?: string | undefined },
): Promise<LnurlOk | LnurlError> {
  if (!query.k1 || !query.pr) return lnurlError('Both k1 and pr are required');
  if (query.k1 !== k1) return lnurlError('k1 does not belong to this withdraw link');
  const paymentRequest = query.pr;
  try {
    const amountMsat = decodeBolt11(paymentRequest).amountMsat;
    if (amountMsat === null) return lnurlError('The invoice must state an amount');
    if (amountMsat < MIN_WITHDRAWABLE_MSAT) return lnurlError('The invoice is for less than 1 sat');
    await deps.db.transaction().execute(async (trx) => {
      const claimed = await claimDevnetWithdrawal(trx, k1);
      if (!claimed) throw new AppError('InvalidLnurlWithdraw', 'This withdraw link is unknown or already used');
      if (amountMsat > claimed.maxMsat) {
        throw new AppError('InvalidLnurlWithdraw', `This link pays at most ${claimed.maxMsat} msat`);
      }
      await payDevnetInvoice(trx, paymentRequest);
    });
    return { status: 'OK' };
  } catch (error) {
    if (error instanceof AppError) return lnurlError(error.message);
    throw error;
  }
}

/** The devnet chain's height, for the wallet page. */
export async function getDevnetChainTip(db: Db): Promise<{ height: number }> {
  return { height: await readDevnetTipHeight(db) };
}

/** Mines blocks on the devnet chain: the wallet page's button and `npm run devnet:mine`. */
export async function mineDevnetChain(db: Db, blocks: number): Promise<{ height: number }> {
  return { height: await mineDevnetBlocks(db, blocks) };
}

/** The devnet wallet pays an on-chain address; the payment waits in the mempool for a block. */
export async function sendOnchainFromDevnetWallet(db: Db, address: string, sats: number): Promise<{ txid: string }> {
  return sendDevnetPayment(db, address, BigInt(sats));
}
