import { randomBytes } from 'node:crypto';
import {
  AppError,
  type CreateRefundRequest,
  formatMinor,
  type LnurlOk,
  type LnurlWithdrawOffer,
  type ReceiptRefund,
  type Refund,
  type SaleRefunds,
} from '@rayo/shared';
import type { ChainBackend } from '../../adapters/chain/types.ts';
import { type LightningBackend, LightningBackendError } from '../../adapters/lightning/types.ts';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/database.ts';
import { checkBitcoinAddress } from '../../domain/bitcoin-address.ts';
import { bolt11CurrencyOf, decodeBolt11 } from '../../domain/bolt11.ts';
import { parseLightningAddress } from '../../domain/lightning-address.ts';
import { encodeLnurl } from '../../domain/lnurl.ts';
import { ONCHAIN_DUST_SATS } from '../../domain/onchain-batch.ts';
import { nextStepFor } from '../../domain/payout-state.ts';
import { planRefund, refundableMsat } from '../../domain/refunds.ts';
import type { RequestContext } from '../../http/request-context.ts';
import { organizationOf } from '../accounts/accounts.service.ts';
import { audit } from '../audit/audit.service.ts';
import type { AccessClaims } from '../auth/tokens.ts';
import { findStoreCheckoutOfSale } from '../checkouts/checkout-state.service.ts';
import { enqueueCheckoutRefundedWebhook } from '../checkouts/checkout-webhooks.ts';
import { recordRefundMovement } from '../ledger/refund-movements.ts';
import {
  AttemptFailure,
  fetchLightningAddressInvoice,
  maxFeeMsat,
  PAY_TIMEOUT_SECONDS,
  SETTLE_MARGIN_SECONDS,
  sha256Hex,
} from '../payouts/payouts.service.ts';
import {
  advanceBatch,
  type BatchRow,
  buildRefundBatch,
  lockPayoutBatchBuilding,
} from '../payouts/payouts-onchain.service.ts';
import {
  claimRefundLink,
  findBatchTxids,
  findRefund,
  findRefundByK1,
  findRefundByKey,
  findSale,
  insertRefund,
  isRefundInvoiceTaken,
  isUnpaidInvoice,
  listPayingRefunds,
  listSaleRefunds,
  markRefundPaid,
  type RefundInvoice,
  type RefundRow,
  recordRefundFailure,
  reopenRefundLink,
  type SaleRow,
  sumCheckoutRefunds,
  sumSaleRefunds,
} from './refunds.repo.ts';

export type RefundDeps = {
  db: Db;
  config: Config;
  lightning: Pick<LightningBackend, 'payInvoice' | 'lookupPayment' | 'network'>;
};
/** Making a refund may send it on-chain, through the chain source the payout batches use. */
export type RefundSaleDeps = RefundDeps & { chain: ChainBackend };
type Log = { debug: (details: object, message: string) => void; warn: (details: object, message: string) => void };
/** The on-chain send logs as the payout batches do. */
type SendLog = Log & { info: (details: object, message: string) => void };

/** How long the customer's invoice must stay payable for Rayo to take it. */
const MIN_INVOICE_LIFE_SECONDS = 30;
const PAYING_BATCH = 50;

function newK1(): string {
  return randomBytes(32).toString('hex');
}

/** Pays a refund after its row is committed; a failure is left to the `pay-refunds` pass. */
function payInBackground(deps: RefundDeps, refundId: string, log: Log): void {
  void payRefund(deps, refundId, log).catch((error: unknown) => {
    log.warn({ refundId, error: String(error) }, 'refund payment failed; the refund pass tries again');
  });
}

/**
 * Broadcasts an on-chain refund's transaction after its rows are committed, as the payout pass
 * would; a failure is left to the `pay-onchain-payouts` pass, which asks the chain first.
 */
function sendInBackground(deps: RefundSaleDeps, batch: BatchRow, log: SendLog): void {
  void advanceBatch(deps, batch, log).catch((error: unknown) => {
    log.warn(
      { txid: batch.txid, error: String(error) },
      'on-chain refund broadcast failed; the payout pass tries again',
    );
  });
}

function txidsOf(db: Db, refunds: readonly RefundRow[]): Promise<Map<string, string>> {
  return findBatchTxids(
    db,
    refunds.flatMap((refund) => (refund.batchId === null ? [] : [refund.batchId])),
  );
}

function refundLinkUrl(config: RefundDeps['config'], k1: string): string {
  return `${config.publicUrl.replace(/\/+$/, '')}/api/lnurlw/refunds/${k1}`;
}

/**
 * `withLink`: the refund link, for an admin, while the customer can still use it. `txids`: the
 * transactions of on-chain refunds, by batch id.
 */
function toRefundJson(
  config: RefundDeps['config'],
  refund: RefundRow,
  withLink: boolean,
  txids: ReadonlyMap<string, string>,
): Refund {
  return {
    id: refund.id,
    transactionId: refund.transactionId,
    amountMsat: Number(refund.amountMsat),
    fiatAmount: formatMinor(refund.fiatMinor, refund.currency),
    currency: refund.currency,
    method: refund.method,
    state: refund.state,
    createdAt: refund.createdAt.toISOString(),
    createdBy: refund.createdByEmail,
    paidAt: refund.paidAt?.toISOString() ?? null,
    destination: refund.destination,
    txid: refund.batchId === null ? null : (txids.get(refund.batchId) ?? null),
    lnurl:
      withLink && refund.state === 'open' && refund.k1 !== null ? encodeLnurl(refundLinkUrl(config, refund.k1)) : null,
  };
}

async function requireSale(db: Db, organizationId: string, saleId: string, caller: AccessClaims, lock = false) {
  const managerUserId = caller.role === 'manager' ? caller.userId : undefined;
  const sale = await findSale(db, { organizationId, saleId, managerUserId, lock });
  if (sale) return sale;
  if (await isUnpaidInvoice(db, organizationId, saleId)) {
    throw new AppError('SaleNotPaid', 'This sale has not been paid, so there is nothing to refund');
  }
  throw new AppError('NotFound', 'Sale not found');
}

/** A repeated request with the key of an earlier refund: the refund it made, if it asked the same. */
function sameRefund(existing: RefundRow, sale: SaleRow, amountMsat: bigint): RefundRow {
  if (existing.transactionId !== sale.transactionId || existing.amountMsat !== amountMsat) {
    throw new AppError('InvalidInput', 'This idempotency key was already used for another refund');
  }
  return existing;
}

type PayTo =
  | { method: 'lightning-invoice' | 'lightning-address'; destination: string; invoice: RefundInvoice }
  | { method: 'onchain-address'; destination: string; sats: bigint };

function refuseInvoice(message: string): AppError {
  return new AppError('InvalidRefundInvoice', message);
}

/**
 * The customer's own invoice, as Rayo's node can pay it: for this node's network, for exactly
 * the refund (an invoice without an amount is refused, so the customer's wallet states what it
 * takes), still payable for a while, and not given for another refund.
 */
async function checkCustomerInvoice(deps: RefundDeps, text: string, amountMsat: bigint): Promise<RefundInvoice> {
  let invoice: ReturnType<typeof decodeBolt11>;
  try {
    invoice = decodeBolt11(text);
  } catch {
    throw refuseInvoice('This is neither a Lightning invoice nor a Lightning address');
  }
  if (invoice.currency !== bolt11CurrencyOf(deps.lightning.network)) {
    throw refuseInvoice(`The invoice is for another network than this node's (${deps.lightning.network})`);
  }
  if (invoice.amountMsat !== amountMsat) {
    throw refuseInvoice(`The invoice must be for exactly ${amountMsat} msat`);
  }
  if (invoice.expiresAt.getTime() < Date.now() + MIN_INVOICE_LIFE_SECONDS * 1000) {
    throw refuseInvoice('The invoice has expired or expires too soon to be paid');
  }
  if (await isRefundInvoiceTaken(deps.db, invoice.paymentHash)) {
    throw refuseInvoice('This invoice was already given for another refund');
  }
  return { paymentRequest: invoice.paymentRequest, paymentHash: invoice.paymentHash, expiresAt: invoice.expiresAt };
}

/**
 * A Bitcoin address of the chain's network (a `bitcoin:` URI without parameters too), sent the
 * refund's whole sats, which must reach the dust limit the payout batches keep; undefined for
 * anything that is not a Bitcoin address, which is then read as a Lightning destination.
 */
function onchainDestination(deps: RefundDeps, destination: string, amountMsat: bigint): PayTo | undefined {
  const uri = /^bitcoin:/i.test(destination);
  const address = destination.replace(/^bitcoin:/i, '').trim();
  const network = deps.config.chain.network;
  const check = checkBitcoinAddress(address, network);
  if (!check.valid && check.reason === 'invalid') {
    if (!uri) return undefined;
    throw new AppError(
      'InvalidOnchainAddress',
      'This is not a Bitcoin address (a bitcoin: URI may not carry parameters)',
    );
  }
  if (!check.valid) {
    throw new AppError('OnchainAddressWrongNetwork', `This address is for ${check.network}, not ${network}`);
  }
  const sats = amountMsat / 1000n;
  if (sats < ONCHAIN_DUST_SATS) {
    throw new AppError('RefundBelowDust', `An on-chain refund must be at least ${ONCHAIN_DUST_SATS} sats`);
  }
  // Bech32 addresses are case-insensitive; a lower-case one is what the transaction's output pays.
  const canonical = check.type === 'p2pkh' || check.type === 'p2sh' ? address : address.toLowerCase();
  return { method: 'onchain-address', destination: canonical, sats };
}

/**
 * What a refund to `destination` pays: the customer's invoice, or one their Lightning address
 * gives for exactly the refund, checked as payouts check theirs (amount, metadata hash, and
 * private or loopback hosts refused outside devnet).
 */
async function resolveDestination(deps: RefundDeps, destination: string, amountMsat: bigint, log: Log): Promise<PayTo> {
  const onchain = onchainDestination(deps, destination, amountMsat);
  if (onchain) return onchain;
  const text = destination.replace(/^lightning:/i, '').trim();
  if (!text.includes('@')) {
    return {
      method: 'lightning-invoice',
      destination: text.toLowerCase(),
      invoice: await checkCustomerInvoice(deps, text, amountMsat),
    };
  }
  const { address } = parseLightningAddress(text);
  try {
    const fetched = await fetchLightningAddressInvoice(deps.config, address, amountMsat, log);
    if (await isRefundInvoiceTaken(deps.db, fetched.paymentHash)) {
      throw new AttemptFailure("The address's service gave an invoice already given for another refund");
    }
    return {
      method: 'lightning-address',
      destination: address,
      invoice: { ...fetched, description: fetched.metadata },
    };
  } catch (error) {
    if (error instanceof AttemptFailure) throw new AppError(error.code, error.message);
    throw error;
  }
}

/**
 * An admin refunds a sale in full or in part. The sale's row is locked for the check and the
 * insert, so two refunds at once cannot both pass the rule of domain/refunds.ts; the same
 * idempotency key again answers the refund it made. The customer takes the money with the
 * refund link (LUD-03) the answer carries.
 */
export async function refundSale(
  ctx: RequestContext,
  deps: RefundSaleDeps,
  saleId: string,
  request: CreateRefundRequest,
  log: SendLog,
): Promise<Refund> {
  const organizationId = organizationOf(ctx);
  const amountMsat = BigInt(request.amountMsat);
  let payTo: PayTo | null = null;
  if (request.destination !== undefined && !(await findRefundByKey(deps.db, organizationId, request.idempotencyKey))) {
    // Checked before the destination is asked for an invoice, and again under the lock below.
    const sale = await requireSale(deps.db, organizationId, saleId, ctx);
    if (sale.organizationBlocked)
      throw new AppError('OrganizationBlocked', 'Your organization is blocked; contact support');
    planRefund(sale, await sumSaleRefunds(deps.db, sale.transactionId), amountMsat);
    payTo = await resolveDestination(deps, request.destination, amountMsat, log);
  }
  let created = false;
  let batch: BatchRow | null = null;
  const refund = await deps.db.transaction().execute(async (trx) => {
    // Taken before the sale's lock, as the payout run takes it before the refunds it locks.
    if (payTo?.method === 'onchain-address') await lockPayoutBatchBuilding(trx);
    const sale = await requireSale(trx, organizationId, saleId, ctx, true);
    // Read after the lock: a same-key request that held it has committed its refund by now.
    const existing = await findRefundByKey(trx, organizationId, request.idempotencyKey);
    if (existing) return sameRefund(existing, sale, amountMsat);
    if (sale.organizationBlocked)
      throw new AppError('OrganizationBlocked', 'Your organization is blocked; contact support');
    const refunded = await sumSaleRefunds(trx, sale.transactionId);
    const { fiatMinor } = planRefund(sale, refunded, amountMsat);
    if (payTo?.method === 'onchain-address') {
      batch = await buildRefundBatch(deps, trx, { organizationId, address: payTo.destination, sats: payTo.sats }, log);
    }
    const inserted = await insertRefund(trx, {
      organizationId,
      transactionId: sale.transactionId,
      amountMsat,
      fiatMinor,
      currency: sale.currency,
      idempotencyKey: request.idempotencyKey,
      createdByUserId: ctx.userId,
      createdByEmail: ctx.actorEmail,
      payTo:
        payTo?.method === 'onchain-address'
          ? { method: 'onchain-address', destination: payTo.destination, batchId: (batch as BatchRow).id }
          : (payTo ?? { method: 'lnurl-withdraw', k1: newK1() }),
    });
    await recordRefundMovement(trx, {
      refundId: inserted.id,
      transactionId: sale.transactionId,
      amountMsat,
      fiatMinor,
    });
    created = true;
    await audit(ctx, trx, 'refund.created', {
      organizationId,
      target: `transaction:${sale.transactionId}`,
      after: {
        refundId: inserted.id,
        amountMsat: amountMsat.toString(),
        fiatAmount: formatMinor(fiatMinor, sale.currency),
        currency: sale.currency,
        method: inserted.method,
        destination: inserted.destination,
      },
    });
    const checkout = await findStoreCheckoutOfSale(trx, sale.transactionId);
    if (checkout) {
      await enqueueCheckoutRefundedWebhook(trx, checkout, inserted, await sumCheckoutRefunds(trx, checkout.id));
    }
    return inserted;
  });
  if (created && batch) sendInBackground(deps, batch, log);
  else if (created && refund.state === 'paying') payInBackground(deps, refund.id, log);
  return toRefundJson(deps.config, refund, true, await txidsOf(deps.db, [refund]));
}

/** A sale's refunds and what may still be refunded; managers see them without the links. */
export async function listRefundsOfSale(deps: RefundDeps, caller: AccessClaims, saleId: string): Promise<SaleRefunds> {
  const sale = await requireSale(deps.db, organizationOf(caller), saleId, caller);
  const refunds = await listSaleRefunds(deps.db, sale.transactionId);
  const txids = await txidsOf(deps.db, refunds);
  const refunded = refunds.reduce(
    (sum, refund) => ({ msat: sum.msat + refund.amountMsat, minor: sum.minor + refund.fiatMinor }),
    { msat: 0n, minor: 0n },
  );
  return {
    saleMsat: Number(sale.totalMsat),
    refundableMsat: Number(refundableMsat(sale, refunded)),
    refunds: refunds.map((refund) => toRefundJson(deps.config, refund, caller.role === 'admin', txids)),
  };
}

/** What a sale's public receipt says of its refunds: those the customer was paid, never their links. */
export async function listPaidRefundsOfSale(db: Db, transactionId: string): Promise<ReceiptRefund[]> {
  const refunds = await listSaleRefunds(db, transactionId);
  return refunds.flatMap((refund) =>
    refund.state === 'paid' && refund.paidAt
      ? [
          {
            amountMsat: Number(refund.amountMsat),
            fiatAmount: formatMinor(refund.fiatMinor, refund.currency),
            paidAt: refund.paidAt.toISOString(),
          },
        ]
      : [],
  );
}

/** LUD-03's first answer: the refund's amount as both the least and the most to withdraw. */
export async function describeRefundLink(deps: RefundDeps, k1: string): Promise<LnurlWithdrawOffer> {
  const refund = await findRefundByK1(deps.db, k1);
  if (!refund) throw new AppError('NotFound', 'Unknown refund link');
  if (refund.state !== 'open') throw new AppError('InvalidLnurlWithdraw', 'This refund link was already used');
  return {
    tag: 'withdrawRequest',
    callback: `${refundLinkUrl(deps.config, k1)}/callback`,
    k1,
    defaultDescription: 'Refund',
    minWithdrawable: Number(refund.amountMsat),
    maxWithdrawable: Number(refund.amountMsat),
  };
}

/**
 * LUD-03's callback: takes the customer's invoice for exactly the refund's amount, then pays it
 * after answering, as the protocol has it. The invoice is stored with a compare-and-set before
 * any payment, so double callbacks pay once, and a payment cut short by a crash is finished by
 * `runRefundPayments`, which asks the node first.
 */
export async function withdrawRefund(
  deps: RefundDeps,
  k1: string,
  query: { k1?: string | undefined; pr?: string | undefined },
  log: Log,
): Promise<LnurlOk> {
  if (!query.k1 || !query.pr) throw new AppError('InvalidLnurlWithdraw', 'Both k1 and pr are required');
  if (query.k1 !== k1) throw new AppError('InvalidLnurlWithdraw', 'k1 does not belong to this refund link');
  const refund = await findRefundByK1(deps.db, k1);
  if (!refund) throw new AppError('NotFound', 'Unknown refund link');
  if (refund.state !== 'open') throw new AppError('InvalidLnurlWithdraw', 'This refund link was already used');
  let invoice: ReturnType<typeof decodeBolt11>;
  try {
    invoice = decodeBolt11(query.pr);
  } catch {
    throw new AppError('InvalidLnurlWithdraw', 'pr is not a valid Lightning invoice');
  }
  if (invoice.amountMsat !== refund.amountMsat) {
    throw new AppError('InvalidLnurlWithdraw', `The invoice must be for exactly ${refund.amountMsat} msat`);
  }
  if (invoice.expiresAt.getTime() < Date.now() + MIN_INVOICE_LIFE_SECONDS * 1000) {
    throw new AppError('InvalidLnurlWithdraw', 'The invoice expires too soon to be paid');
  }
  const claimed = await claimRefundLink(deps.db, k1, {
    paymentRequest: invoice.paymentRequest,
    paymentHash: invoice.paymentHash,
    expiresAt: invoice.expiresAt,
  });
  if (!claimed) throw new AppError('InvalidLnurlWithdraw', 'This refund link was already used');
  payInBackground(deps, claimed.id, log);
  return { status: 'OK' };
}

/**
 * One attempt at paying a refund's stored invoice, as payouts do (domain/payout-state.ts): the
 * node is asked about the payment hash first, so a payment it made is recorded, never made again;
 * one under way is waited for; one that can no longer complete opens the link again.
 */
export async function payRefund(deps: RefundDeps, refundId: string, log: Log): Promise<void> {
  const refund = await findRefund(deps.db, refundId);
  if (refund?.state !== 'paying' || !refund.paymentHash || !refund.paymentRequest || !refund.invoiceExpiresAt) return;
  const paymentHash = refund.paymentHash;
  const status = await deps.lightning.lookupPayment(paymentHash);
  const step = nextStepFor(status, {
    expiresAt: refund.invoiceExpiresAt,
    now: new Date(),
    settleMarginSeconds: SETTLE_MARGIN_SECONDS,
  });
  if (step.step === 'mark_sent') {
    await markRefundPaid(deps.db, refund.id, { paymentHash, preimage: step.preimage, feeMsat: step.feeMsat });
    return;
  }
  if (step.step === 'wait') return;
  if (step.step === 'fetch_invoice') {
    if (await reopenRefundLink(deps.db, refund.id, paymentHash, newK1())) {
      log.warn({ refundId: refund.id }, "the customer's refund invoice expired unpaid; the refund is a link again");
    }
    return;
  }
  try {
    const result = await deps.lightning.payInvoice(refund.paymentRequest, {
      maxFeeMsat: maxFeeMsat(deps.config, refund.amountMsat),
      timeoutSeconds: PAY_TIMEOUT_SECONDS,
      ...(refund.paymentDescription !== null && { description: refund.paymentDescription }),
    });
    if (result.paymentHash !== paymentHash || sha256Hex(Buffer.from(result.preimage, 'hex')) !== paymentHash) {
      await recordRefundFailure(deps.db, refund.id, 'The backend reported a preimage that does not match the invoice');
      return;
    }
    await markRefundPaid(deps.db, refund.id, { paymentHash, preimage: result.preimage, feeMsat: result.feeMsat });
  } catch (error) {
    if (!(error instanceof LightningBackendError)) throw error;
    // Whether or not the payment went out, the next attempt asks the node before anything else.
    await recordRefundFailure(deps.db, refund.id, error.message.slice(0, 500));
    log.warn({ refundId: refund.id, error: error.message }, 'refund payment attempt failed; it will be retried');
  }
}

/** The refund pass: one attempt at every refund whose payment was started and not recorded done. */
export async function runRefundPayments(deps: RefundDeps, log: Log): Promise<void> {
  for (const refund of await listPayingRefunds(deps.db, PAYING_BATCH)) await payRefund(deps, refund.id, log);
}
