import { createHash, randomUUID } from 'node:crypto';
import { AppError, type Payout, type PayoutPage, type PayoutQuery } from '@rayo/shared';
import { type LightningBackend, LightningBackendError } from '../../adapters/lightning/types.ts';
import { resolveLightningAddress } from '../../adapters/lnurl/lightning-address-client.ts';
import { getJsonObjectSafely, SafeFetchError } from '../../adapters/lnurl/safe-fetch.ts';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/database.ts';
import { decodeBolt11 } from '../../domain/bolt11.ts';
import { parseLightningAddress } from '../../domain/lightning-address.ts';
import { planSplit, splitChangesNothing } from '../../domain/payout-split.ts';
import { nextStepFor, type RetryPolicy, retryDelaySeconds, shouldAlert } from '../../domain/payout-state.ts';
import type { ActorContext } from '../../http/request-context.ts';
import { payoutAttemptsFailed, payoutsSent } from '../../metrics.ts';
import { organizationOf } from '../accounts/accounts.service.ts';
import { audit } from '../audit/audit.service.ts';
import type { AccessClaims } from '../auth/tokens.ts';
import { notifyBackOffice } from '../notifications/notifications.service.ts';
import { chargeRefundsToPayout, lockRefundsOwed, releasePayoutRefunds } from '../refunds/refund-charges.service.ts';
import {
  findPayoutDestinationHolds,
  listOrganizationPayoutHolds,
} from '../settings/payout-destination-holds.service.ts';
import { replacePayoutByParts } from './payout-oversize.repo.ts';
import {
  findPayout,
  insertLightningPayout,
  listDueLightningPayouts,
  listOrganizationPayouts,
  listOrganizationsDueLightningPayout,
  lockOrganizationForLightningPayout,
  lockUnpaidLightningShares,
  markPayoutSent,
  type PayoutRow,
  postponePayout,
  recordPayoutFailure,
  storePayoutInvoice,
  sumFiatShares,
} from './payouts.repo.ts';
import { listPayoutConfirmations } from './payouts-onchain.repo.ts';
import { findOnchainWaiting } from './payouts-onchain-wallet.service.ts';

export type PayoutDeps = { db: Db; config: Config; lightning: LightningBackend };
type Log = { debug: (details: object, message: string) => void; warn: (details: object, message: string) => void };

/** How long one payment may search for a route before the backend gives up on it. */
export const PAY_TIMEOUT_SECONDS = 60;
/**
 * An expired invoice is replaced only after this long: a payment of it started just before it
 * expired has ended by then (the backend's own deadline plus lnd's grace), so the old one cannot
 * still complete next to the new one.
 */
export const SETTLE_MARGIN_SECONDS = PAY_TIMEOUT_SECONDS + 60;
/** Longest wait between two attempts at a failing payout. */
const MAX_RETRY_DELAY_SECONDS = 6 * 3600;
/** How long the recipient's invoice must stay payable for us to start paying it. */
const MIN_INVOICE_LIFE_SECONDS = 30;
const DUE_BATCH = 50;
const LNURL_TIMEOUT_MS = 10_000;

/** The backoff and alert count of every failing payout, Lightning or on-chain. */
export function retryPolicy(config: Config): RetryPolicy {
  return {
    baseDelaySeconds: config.payouts.retryBaseSeconds,
    maxDelaySeconds: MAX_RETRY_DELAY_SECONDS,
    attemptsBeforeAlert: config.payouts.alertAfterAttempts,
  };
}

/**
 * How Rayo reaches a Lightning address's service, to check it when it is saved and to pay it:
 * over HTTP at loopback on devnet or with the test-only private-host switch, and on devnet its
 * own origin whatever address that is, since the devnet's Lightning addresses are Rayo's own.
 */
export function lightningAddressReach(config: Pick<Config, 'lightning' | 'lnurlAllowPrivateHosts' | 'publicUrl'>) {
  const devnet = config.lightning.backend === 'devnet';
  return {
    allowInsecureLoopback: devnet || config.lnurlAllowPrivateHosts,
    allowPrivateAddresses: config.lnurlAllowPrivateHosts,
    trustedOrigin: devnet ? new URL(config.publicUrl).origin : undefined,
  };
}

/** The routing fee we allow: the operator's LIGHTNING_MAX_FEE_PERCENT of the amount, at least 1 sat. */
export function maxFeeMsat(config: Pick<Config, 'lightning'>, amountMsat: bigint): bigint {
  const fee = (amountMsat * BigInt(config.lightning.maxFeeBps)) / 10_000n;
  return fee > 1000n ? fee : 1000n;
}

/**
 * An attempt that cannot go on: the payout is marked failed with `message` and tried again later;
 * a refund to a Lightning address is refused with `code`.
 */
export class AttemptFailure extends Error {
  readonly code: 'LightningAddressUnreachable' | 'LightningAddressNotPayable';

  constructor(message: string, code: AttemptFailure['code'] = 'LightningAddressNotPayable') {
    super(message);
    this.code = code;
  }
}

/** The payout is more than the address's service takes in one payment (LUD-06 `maxSendable`). */
class AboveMaxSendable extends AttemptFailure {
  readonly range: { minMsat: bigint; maxMsat: bigint };

  constructor(message: string, range: { minMsat: bigint; maxMsat: bigint }) {
    super(message);
    this.range = range;
  }
}

export function sha256Hex(bytes: Buffer | string): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/**
 * LUD-16 then LUD-06: resolves the address, asks its callback for an invoice of exactly
 * `amountMsat`, and checks that the invoice is for that amount and commits to the metadata the
 * address announced, so that a service cannot make us pay for something else. Payouts and
 * refunds to a Lightning address both pay what this answers.
 */
export async function fetchLightningAddressInvoice(
  config: Pick<Config, 'lightning' | 'lnurlAllowPrivateHosts' | 'publicUrl'>,
  destination: string,
  amountMsat: bigint,
  log: Log,
): Promise<{ paymentRequest: string; paymentHash: string; expiresAt: Date; metadata: string }> {
  const reach = lightningAddressReach(config);
  let payRequest: Awaited<ReturnType<typeof resolveLightningAddress>>;
  try {
    payRequest = await resolveLightningAddress({
      address: parseLightningAddress(destination),
      ...reach,
      timeoutMs: LNURL_TIMEOUT_MS,
      log,
    });
  } catch (error) {
    if (error instanceof AppError) {
      throw new AttemptFailure(
        error.message,
        error.code === 'LightningAddressUnreachable' ? error.code : 'LightningAddressNotPayable',
      );
    }
    throw error;
  }
  if (amountMsat < payRequest.minSendableMsat || amountMsat > payRequest.maxSendableMsat) {
    const message = `The address accepts ${payRequest.minSendableMsat}–${payRequest.maxSendableMsat} msat, not ${amountMsat}`;
    if (amountMsat < payRequest.minSendableMsat) throw new AttemptFailure(message);
    throw new AboveMaxSendable(message, { minMsat: payRequest.minSendableMsat, maxMsat: payRequest.maxSendableMsat });
  }
  const callback = new URL(payRequest.callback);
  callback.searchParams.set('amount', amountMsat.toString());
  let answer: Record<string, unknown>;
  try {
    answer = await getJsonObjectSafely(callback, {
      signal: AbortSignal.timeout(LNURL_TIMEOUT_MS),
      allowPrivateAddresses: reach.allowPrivateAddresses,
      trustedOrigin: reach.trustedOrigin,
    });
  } catch (error) {
    if (!(error instanceof SafeFetchError)) throw error;
    log.debug({ origin: callback.origin, ...error.details }, 'Lightning address callback failed');
    throw new AttemptFailure(`The address's service did not give an invoice (${error.failure})`);
  }
  if (answer.status === 'ERROR' || typeof answer.pr !== 'string') {
    log.debug({ reason: String(answer.reason).slice(0, 200) }, 'Lightning address callback refused');
    throw new AttemptFailure("The address's service refused to give an invoice");
  }
  let invoice: ReturnType<typeof decodeBolt11>;
  try {
    invoice = decodeBolt11(answer.pr);
  } catch {
    throw new AttemptFailure("The address's service gave an invalid invoice");
  }
  if (invoice.amountMsat !== amountMsat) {
    throw new AttemptFailure(`The invoice is for ${invoice.amountMsat ?? 'any'} msat, not ${amountMsat}`);
  }
  if (invoice.descriptionHash !== sha256Hex(payRequest.metadata)) {
    throw new AttemptFailure("The invoice does not commit to the address's metadata");
  }
  if (invoice.expiresAt.getTime() < Date.now() + MIN_INVOICE_LIFE_SECONDS * 1000) {
    throw new AttemptFailure('The invoice expires too soon to be paid');
  }
  return {
    paymentRequest: invoice.paymentRequest,
    paymentHash: invoice.paymentHash,
    expiresAt: invoice.expiresAt,
    metadata: payRequest.metadata,
  };
}

/**
 * Counts a failed attempt at an open payout and schedules its retry with the backoff; at the
 * policy's count back office hears of it (payout.failed). Returns the attempts so far, null when
 * the payout was no longer open.
 */
export async function recordFailedPayoutAttempt(
  deps: { db: Db; config: Config },
  payout: Pick<PayoutRow, 'id' | 'organizationId' | 'destination' | 'amountMsat'>,
  message: string,
): Promise<number | null> {
  const policy = retryPolicy(deps.config);
  const error = message.slice(0, 500);
  const attempts = await recordPayoutFailure(deps.db, payout.id, {
    error,
    retryInSeconds: (n) => retryDelaySeconds(n, policy),
  });
  if (attempts !== null) payoutAttemptsFailed.inc();
  if (attempts !== null && shouldAlert(attempts, policy)) {
    await notifyBackOffice(deps.db, {
      organizationId: payout.organizationId,
      kind: 'payout.failed',
      payload: {
        payoutId: payout.id,
        destination: payout.destination,
        amountMsat: payout.amountMsat.toString(),
        attempts,
        lastError: error,
      },
    });
  }
  return attempts;
}

async function recordFailure(deps: PayoutDeps, payout: PayoutRow, message: string, log: Log): Promise<void> {
  const attempts = await recordFailedPayoutAttempt(deps, payout, message);
  log.warn({ payoutId: payout.id, attempts, error: message }, 'payout attempt failed; it will be retried');
}

async function paySent(deps: PayoutDeps, payout: PayoutRow, paymentHash: string, log: Log): Promise<void> {
  const stored = await findPayout(deps.db, payout.id);
  if (stored?.paymentRequest == null || stored.paymentHash !== paymentHash) return;
  let result: Awaited<ReturnType<LightningBackend['payInvoice']>>;
  try {
    result = await deps.lightning.payInvoice(stored.paymentRequest, {
      maxFeeMsat: maxFeeMsat(deps.config, stored.amountMsat),
      timeoutSeconds: PAY_TIMEOUT_SECONDS,
      // The invoice commits only to this text's hash; Core Lightning wants the text to pay it.
      ...(stored.invoiceMetadata === null ? {} : { description: stored.invoiceMetadata }),
    });
  } catch (error) {
    if (!(error instanceof LightningBackendError)) throw error;
    // Whether or not the payment went out, the next attempt asks the backend before doing anything.
    await recordFailure(deps, stored, error.message, log);
    return;
  }
  if (result.paymentHash !== paymentHash || sha256Hex(Buffer.from(result.preimage, 'hex')) !== paymentHash) {
    await recordFailure(deps, stored, 'The backend reported a preimage that does not match the invoice', log);
    return;
  }
  await recordLightningPayoutSent(deps.db, stored.id, {
    paymentHash,
    preimage: result.preimage,
    feeMsat: result.feeMsat,
  });
}

/** Marks a Lightning payout paid, and counts it when this call did (a racing process may have). */
export async function recordLightningPayoutSent(
  db: Db,
  id: string,
  payment: Parameters<typeof markPayoutSent>[2],
): Promise<void> {
  if (await markPayoutSent(db, id, payment)) payoutsSent.inc({ rail: 'lightning' });
}

/**
 * One attempt at a Lightning payout. A payout that holds an invoice may have reached the backend,
 * so the backend is asked about that payment hash before anything else (domain/payout-state.ts
 * `nextStepFor`); only a payout without one fetches an invoice. Racing attempts (two processes)
 * pay at most once: the invoice is stored with a compare-and-set, and a backend pays one hash once.
 */
export async function attemptLightningPayout(deps: PayoutDeps, payoutId: string, log: Log): Promise<void> {
  const payout = await findPayout(deps.db, payoutId);
  if (!payout || (payout.state !== 'pending' && payout.state !== 'failed')) return;
  try {
    if (payout.paymentHash !== null && payout.invoiceExpiresAt !== null) {
      const status = await deps.lightning.lookupPayment(payout.paymentHash);
      const step = nextStepFor(status, {
        expiresAt: payout.invoiceExpiresAt,
        now: new Date(),
        settleMarginSeconds: SETTLE_MARGIN_SECONDS,
      });
      if (step.step === 'mark_sent') {
        await recordLightningPayoutSent(deps.db, payout.id, { paymentHash: payout.paymentHash, ...step });
        return;
      }
      if (step.step === 'wait') {
        // Asked about again after the first retry delay; not counted as a failed attempt.
        await postponePayout(deps.db, payout.id, deps.config.payouts.retryBaseSeconds);
        return;
      }
      if (step.step === 'pay_stored_invoice') {
        await paySent(deps, payout, payout.paymentHash, log);
        return;
      }
    }
    const invoice = await fetchLightningAddressInvoice(deps.config, payout.destination, payout.amountMsat, log);
    if (!(await storePayoutInvoice(deps.db, payout.id, payout.paymentHash, invoice))) return;
    await paySent(deps, payout, invoice.paymentHash, log);
  } catch (error) {
    if (error instanceof AboveMaxSendable) {
      // Only reached without a live invoice (none yet, or one no payment can complete any more).
      const parts = await deps.db.transaction().execute(async (trx) => {
        const replacing = await replacePayoutByParts(trx, {
          payoutId: payout.id,
          paymentHash: payout.paymentHash,
          plan: (shares) => {
            const plan = planSplit(shares, error.range);
            return splitChangesNothing(plan, shares) ? null : plan.groups;
          },
        });
        // The parts carry the shares whole; the refunds the payout took wait for the next one.
        if (replacing.length > 0) await releasePayoutRefunds(trx, payout.id);
        return replacing;
      });
      if (parts.length > 0) {
        log.warn(
          { payoutId: payout.id, parts },
          "payout above the address's maximum split into parts; each part is paid on its own",
        );
        for (const part of parts) await attemptLightningPayout(deps, part, log);
        return;
      }
    }
    if (error instanceof AttemptFailure) {
      await recordFailure(deps, payout, error.message, log);
      return;
    }
    if (error instanceof LightningBackendError) {
      await recordFailure(deps, payout, error.message, log);
      return;
    }
    throw error;
  }
}

/**
 * Makes a pending payout of each organization whose unpaid Lightning shares reached the minimum,
 * unless its Lightning address changed and is held (findPayoutDestinationHolds): its shares wait.
 * Each payout is audited under `ctx` in the transaction that makes it.
 */
export async function batchLightningPayouts(
  ctx: ActorContext,
  deps: PayoutDeps,
  now = new Date(),
): Promise<PayoutRow[]> {
  const created: PayoutRow[] = [];
  const due = await listOrganizationsDueLightningPayout(deps.db, deps.config.payouts.minMsat);
  const held = await findPayoutDestinationHolds(deps.db, 'lightning', due, now);
  for (const organizationId of due) {
    if (held.has(organizationId)) continue;
    const payout = await createLightningPayout(ctx, deps.db, {
      organizationId,
      minMsat: deps.config.payouts.minMsat,
      idempotencyKey: `lightning:${randomUUID()}`,
      now,
    });
    if (payout) created.push(payout);
  }
  return created;
}

/**
 * In one database transaction: the organization's unpaid Lightning shares, less the refunds it
 * owes, become one pending payout to its address. The organization row is locked first, so two
 * processes batching at once take turns and the second finds nothing left. The destination hold
 * is asked with the row locked, so an address changed since the organization was found due is
 * judged as it is now. Null when nothing is due any more, or the address may not be paid.
 */
async function createLightningPayout(
  ctx: ActorContext,
  db: Db,
  input: { organizationId: string; minMsat: bigint; idempotencyKey: string; now: Date },
): Promise<PayoutRow | null> {
  const { organizationId } = input;
  return db.transaction().execute(async (trx) => {
    const organization = await lockOrganizationForLightningPayout(trx, organizationId);
    if (!organization?.lightningAddress || organization.blocked) return null;
    if ((await findPayoutDestinationHolds(trx, 'lightning', [organizationId], input.now)).has(organizationId)) {
      return null;
    }
    const shares = await lockUnpaidLightningShares(trx, organizationId);
    // A refund is taken from the next payout, whether its sale's share is in it or was paid before.
    const owed = await lockRefundsOwed(trx, organizationId);
    const sharesTotal = shares.reduce((sum, share) => sum + share.amountMsat, 0n);
    const total = owed.reduce((sum, refund) => sum - refund.amountMsat, sharesTotal);
    if (shares.length === 0 || total < input.minMsat) return null;
    const payout = await insertLightningPayout(trx, {
      organizationId,
      destination: organization.lightningAddress,
      amountMsat: total,
      idempotencyKey: input.idempotencyKey,
      shares,
    });
    await chargeRefundsToPayout(
      trx,
      owed.map((refund) => refund.id),
      payout.id,
    );
    await audit(ctx, trx, 'payout.created', {
      organizationId,
      target: `payout:${payout.id}`,
      after: { kind: payout.kind, destination: payout.destination, amountMsat: payout.amountMsat.toString() },
    });
    return payout;
  });
}

/** The payout pass: new batches first, then one attempt at every payout that is due. */
export async function runLightningPayouts(ctx: ActorContext, deps: PayoutDeps, log: Log): Promise<void> {
  await batchLightningPayouts(ctx, deps);
  for (const payout of await listDueLightningPayouts(deps.db, new Date(), DUE_BATCH)) {
    await attemptLightningPayout(deps, payout.id, log);
  }
}

/** The organization's payouts for its history screen, newest first. */
export async function listPayouts(
  deps: Pick<PayoutDeps, 'db' | 'config'>,
  caller: AccessClaims,
  query: PayoutQuery,
): Promise<PayoutPage> {
  return payoutPage(deps, organizationOf(caller), query);
}

/** Back office's view of an organization's payouts, where it can cancel one. */
export async function listOrganizationPayoutsForBackOffice(
  deps: Pick<PayoutDeps, 'db' | 'config'>,
  organizationId: string,
  query: PayoutQuery,
): Promise<PayoutPage> {
  return payoutPage(deps, organizationId, query);
}

/** `confirmations`: how deep the chain has an on-chain payout's transaction, when it has it. */
export function toPayoutJson(payout: PayoutRow, confirmations: number | null = null): Payout {
  return {
    id: payout.id,
    createdAt: payout.createdAt.toISOString(),
    kind: payout.kind,
    destination: payout.destination,
    amountMsat: Number(payout.amountMsat),
    feeMsat: Number(payout.feeMsat),
    state: payout.state,
    attempts: payout.attempts,
    paymentHash: payout.paymentHash,
    txid: payout.txid,
    confirmations,
    sentAt: payout.sentAt?.toISOString() ?? null,
  };
}

async function payoutPage(
  deps: Pick<PayoutDeps, 'db' | 'config'>,
  organizationId: string,
  query: PayoutQuery,
): Promise<PayoutPage> {
  const { payouts, total } = await listOrganizationPayouts(deps.db, organizationId, {
    limit: query.pageSize,
    offset: (query.page - 1) * query.pageSize,
  });
  const fiat = await sumFiatShares(deps.db, organizationId);
  const depths = await listPayoutConfirmations(
    deps.db,
    organizationId,
    payouts.filter((payout) => payout.kind === 'onchain').map((payout) => payout.id),
  );
  return {
    total,
    holds: await listOrganizationPayoutHolds(deps.db, organizationId),
    fiat: fiat.map((share) => ({
      currency: share.currency,
      awaitingMinor: Number(share.awaitingMinor),
      paidMinor: Number(share.paidMinor),
    })),
    payouts: payouts.map((payout) => toPayoutJson(payout, depths.get(payout.id) ?? null)),
    onchainWaiting: await findOnchainWaiting(deps, organizationId),
  };
}
