import type { Db } from '../../db/database.ts';
import { type RefundShares, splitRefund } from '../../domain/refund-shares.ts';
import { addRefundToLedger, lockRefundedSale } from './ledger.repo.ts';

/**
 * Records a refund as a movement of the ledger, inside the transaction that creates the refund,
 * so the ledger gains it exactly once, with it: the parts it takes from the sale's fiat, on-chain
 * and Lightning shares (domain/refund-shares.ts), kept on the refund for the payouts and
 * transfers that take them, and the sale's and its day's refunded sums, which the ledger's
 * readers (CSV, country reports, charts, "to disburse") net the sale by.
 */
export async function recordRefundMovement(
  trx: Db,
  refund: { refundId: string; transactionId: string; amountMsat: bigint; fiatMinor: bigint },
): Promise<RefundShares> {
  const sale = await lockRefundedSale(trx, refund.transactionId);
  const shares = splitRefund(sale, sale.refundedFiatMsat, refund.amountMsat);
  await addRefundToLedger(trx, {
    ...refund,
    fiatMsat: shares.fiatMsat,
    onchainMsat: shares.onchainMsat,
    lightningMsat: shares.lightningMsat,
    fiatShareMinor: shares.fiatMinor,
  });
  return shares;
}
