import { AppError, OPEN_PAYOUT_STATES, type Payout } from '@rayo/shared';
import { type LightningBackend, LightningBackendError } from '../../adapters/lightning/types.ts';
import type { Db } from '../../db/database.ts';
import { nextStepFor } from '../../domain/payout-state.ts';
import type { PublicContext, RequestContext } from '../../http/request-context.ts';
import { audit, recordAuditEntry } from '../audit/audit.service.ts';
import { releasePayoutRefunds } from '../refunds/refund-charges.service.ts';
import { cancelPayoutRow, listOpenLightningPayoutsElsewhere } from './payout-cancel.repo.ts';
import { findPayout } from './payouts.repo.ts';
import { recordLightningPayoutSent, SETTLE_MARGIN_SECONDS, toPayoutJson } from './payouts.service.ts';

export type PayoutCancelDeps = { db: Db; lightning: Pick<LightningBackend, 'lookupPayment'> };

type Verdict = { cancellable: true } | { cancellable: false; sent: boolean; retryAfter: Date | null };

/** Cancels the payout in `trx` and, when it did, leaves the refunds it took owed to the next payout. */
async function cancelPayoutAndFreeRefunds(trx: Db, input: Parameters<typeof cancelPayoutRow>[1]): Promise<boolean> {
  if (!(await cancelPayoutRow(trx, input))) return false;
  await releasePayoutRefunds(trx, input.payoutId);
  return true;
}

/**
 * Whether a payout holding an invoice may be cancelled: only when no payment of it can still
 * complete, which is when an attempt itself would give up on that invoice (`nextStepFor` says
 * fetch a new one: the backend made no payment and the invoice expired longer ago than any
 * payment of it could take). A payment the backend made is recorded as sent on the way.
 */
async function checkInvoice(
  db: Db,
  lightning: PayoutCancelDeps['lightning'],
  payout: { id: string; paymentHash: string | null; invoiceExpiresAt: Date | null },
): Promise<Verdict> {
  if (payout.paymentHash === null || payout.invoiceExpiresAt === null) return { cancellable: true };
  let status: Awaited<ReturnType<LightningBackend['lookupPayment']>>;
  try {
    status = await lightning.lookupPayment(payout.paymentHash);
  } catch (error) {
    if (!(error instanceof LightningBackendError)) throw error;
    throw new AppError('LightningUnavailable', 'The Lightning node did not say whether this payout was paid');
  }
  const step = nextStepFor(status, {
    expiresAt: payout.invoiceExpiresAt,
    now: new Date(),
    settleMarginSeconds: SETTLE_MARGIN_SECONDS,
  });
  if (step.step === 'fetch_invoice') return { cancellable: true };
  if (step.step === 'mark_sent') {
    await recordLightningPayoutSent(db, payout.id, { paymentHash: payout.paymentHash, ...step });
    return { cancellable: false, sent: true, retryAfter: null };
  }
  return {
    cancellable: false,
    sent: false,
    retryAfter: new Date(payout.invoiceExpiresAt.getTime() + SETTLE_MARGIN_SECONDS * 1000),
  };
}

/**
 * Back office cancels a pending or failed Lightning payout that no payment can still complete;
 * its shares go back to the unpaid pool and the next batch pays them again (to the address the
 * organization has then). Audited.
 */
export async function cancelPayout(ctx: RequestContext, deps: PayoutCancelDeps, payoutId: string): Promise<Payout> {
  const payout = await findPayout(deps.db, payoutId);
  if (!payout) throw new AppError('NotFound', 'No such payout');
  if (payout.kind !== 'lightning') {
    throw new AppError('PayoutNotCancellable', 'Only Lightning payouts can be cancelled here');
  }
  if (!OPEN_PAYOUT_STATES.includes(payout.state)) {
    throw new AppError('PayoutNotCancellable', `This payout is ${payout.state} and cannot be cancelled`);
  }
  const verdict = await checkInvoice(deps.db, deps.lightning, payout);
  if (!verdict.cancellable) {
    if (verdict.sent) throw new AppError('PayoutNotCancellable', 'This payout has been paid and cannot be cancelled');
    throw new AppError(
      'PayoutInFlight',
      `A payment of this payout may still complete; it can be cancelled after ${verdict.retryAfter?.toISOString()}`,
    );
  }
  await deps.db.transaction().execute(async (trx) => {
    const done = await cancelPayoutAndFreeRefunds(trx, {
      organizationId: payout.organizationId,
      payoutId: payout.id,
      paymentHash: payout.paymentHash,
      reason: 'Cancelled by back office',
    });
    // An attempt stored a new invoice since it was checked: that payment may be under way now.
    if (!done) throw new AppError('PayoutInFlight', 'This payout is being paid right now; look again in a minute');
    await audit(ctx, trx, 'payout.cancelled', {
      organizationId: payout.organizationId,
      target: `payout:${payout.id}`,
      before: { state: payout.state, amountMsat: payout.amountMsat.toString(), destination: payout.destination },
      after: { state: 'cancelled', reason: 'back_office' },
    });
  });
  const cancelled = await findPayout(deps.db, payout.id);
  if (!cancelled) throw new AppError('NotFound', 'No such payout');
  return toPayoutJson(cancelled);
}

/**
 * The Lightning address changed, or a change was cancelled (inside that transaction, the
 * organization row locked): open payouts to any other address that no payment can still complete
 * are cancelled, so their shares go to `newAddress` with the next batch (none without one). One
 * whose payment may still complete keeps going where it was; it is paid there or fails, and back
 * office can cancel it once it cannot complete any more. `actorUserId` is null for a change
 * cancelled from the mailed link.
 */
export async function cancelPayoutsToOldAddress(
  ctx: PublicContext,
  trx: Db,
  lightning: PayoutCancelDeps['lightning'],
  input: {
    organizationId: string;
    newAddress: string | null;
    actorUserId: string | null;
    actorEmail: string | null;
  },
): Promise<string[]> {
  const cancelled: string[] = [];
  for (const payout of await listOpenLightningPayoutsElsewhere(trx, input.organizationId, input.newAddress)) {
    const verdict = await checkInvoice(trx, lightning, payout);
    if (!verdict.cancellable) continue;
    const done = await cancelPayoutAndFreeRefunds(trx, {
      organizationId: input.organizationId,
      payoutId: payout.id,
      paymentHash: payout.paymentHash,
      reason: 'The Lightning address changed',
    });
    if (!done) continue;
    cancelled.push(payout.id);
    await recordAuditEntry(trx, {
      action: 'payout.cancelled',
      actorUserId: input.actorUserId,
      actorEmail: input.actorEmail,
      organizationId: input.organizationId,
      target: `payout:${payout.id}`,
      after: { state: 'cancelled', reason: 'lightning_address_changed', newAddress: input.newAddress },
      ip: ctx.ip,
    });
  }
  return cancelled;
}
