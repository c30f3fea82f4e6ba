import type { Db, ReadDb } from '../../db/database.ts';
import * as refunds from './refunds.repo.ts';

// What a refund takes from the merchant's payouts and "to disburse", for the payout and dashboard
// modules. Kept apart from refunds.service.ts, which imports the payout services, so that those
// can import this without a cycle.

/**
 * Every organization's refunds whose on-chain part no on-chain payout has taken yet, locked until
 * the caller's transaction ends, for the batch being built to pay each organization less by them.
 */
export async function lockOnchainRefundsOwed(
  trx: Db,
): Promise<{ id: string; organizationId: string; amountMsat: bigint }[]> {
  return refunds.lockOnchainRefundsOwed(trx);
}

/**
 * The organization's refunds whose Lightning part no Lightning payout has taken yet, locked until
 * the caller's transaction ends, for the payout being made to be smaller by them.
 */
export async function lockRefundsOwed(trx: Db, organizationId: string): Promise<{ id: string; amountMsat: bigint }[]> {
  return refunds.lockRefundsOwed(trx, organizationId);
}

/** The refunds a new Lightning payout is smaller by are taken by it, in the payout's transaction. */
export async function chargeRefundsToPayout(trx: Db, refundIds: string[], payoutId: string): Promise<void> {
  await refunds.chargeRefundsToPayout(trx, refundIds, payoutId);
}

/** The refunds a new on-chain payout is smaller by are taken by it, in the batch's transaction. */
export async function chargeRefundsToOnchainPayout(trx: Db, refundIds: string[], payoutId: string): Promise<void> {
  await refunds.chargeRefundsToOnchainPayout(trx, refundIds, payoutId);
}

/** What the refunds of the dashboard filter's sales still take from their "to disburse". */
export async function sumRefundsNotDisbursed(
  db: ReadDb,
  filter: { organizationId: string; accountIds: string[] | null; from: Date | null; to: Date | null; currency: string },
): Promise<{ msat: bigint; fiatMinor: bigint }> {
  return refunds.sumRefundsNotDisbursed(db, filter);
}

/** A cancelled Lightning payout's refunds are owed again, so the next payout takes them; in the cancel's transaction. */
export async function releasePayoutRefunds(trx: Db, payoutId: string): Promise<void> {
  await refunds.releasePayoutRefunds(trx, payoutId);
}
