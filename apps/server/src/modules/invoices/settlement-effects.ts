import type { Db } from '../../db/database.ts';
import { applyCheckoutSettlement } from '../checkouts/checkouts.service.ts';
import { recordDonationReceived } from '../donations/donations.service.ts';
import { enqueueShopOrderMarking } from '../shops/shop-orders.service.ts';
import type { InvoiceRow } from './invoices.repo.ts';

/**
 * What else a settlement changes, by what the invoice sold. It runs inside the settlement's
 * database transaction, so a source's own state moves exactly when the ledger gains the sale.
 */
export async function applySettlementEffects(trx: Db, invoice: InvoiceRow): Promise<void> {
  switch (invoice.source) {
    case 'terminal':
      return;
    case 'payment_link':
      return applyCheckoutSettlement(trx, invoice);
    case 'checkout':
      await applyCheckoutSettlement(trx, invoice);
      // A shop's order sold by the checkout is told by a job, after this transaction commits.
      if (invoice.source_id) await enqueueShopOrderMarking(trx, invoice.source_id);
      return;
    case 'donation':
      return recordDonationReceived(trx, invoice);
  }
}
