import type { Db } from '../../db/database.ts';
import { applyCheckoutSettlement } from '../checkouts/checkouts.service.ts';
import { recordDonationReceived } from '../donations/donations.service.ts';
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
    case 'checkout':
      return applyCheckoutSettlement(trx, invoice);
    case 'donation':
      return recordDonationReceived(trx, invoice);
  }
}
