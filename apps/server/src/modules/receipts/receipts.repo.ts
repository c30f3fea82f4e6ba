import type { Db } from '../../db/database.ts';

/** A paid sale as its receipt shows it, with its organization. */
export type ReceiptRow = {
  transactionId: string;
  organizationId: string;
  invoiceId: string;
  settledAt: Date;
  source: string;
  description: string;
  currency: string;
  billMinor: string;
  tipMinor: string;
  taxMinor: string;
  totalMinor: string;
  totalMsat: string;
  rateMinorPerBtc: string;
  paymentHash: string;
  organizationName: string;
  countryCode: string | null;
  timeZone: string;
  language: 'en' | 'es';
};

/** The sale an invoice was settled into, if it was. */
export async function findTransactionOfInvoice(
  db: Db,
  invoiceId: string,
): Promise<{ id: string; organization_id: string } | undefined> {
  return db
    .selectFrom('transactions')
    .select(['id', 'organization_id'])
    .where('invoice_id', '=', invoiceId)
    .executeTakeFirst();
}

/** The sales a checkout's payments were settled into, oldest first. */
export async function listTransactionsOfCheckout(
  db: Db,
  checkoutId: string,
): Promise<{ id: string; organization_id: string }[]> {
  return db
    .selectFrom('transactions')
    .innerJoin('invoices', 'invoices.id', 'transactions.invoice_id')
    .select(['transactions.id', 'transactions.organization_id'])
    .where('invoices.source', 'in', ['payment_link', 'checkout'])
    .where('invoices.source_id', '=', checkoutId)
    .orderBy('transactions.settled_at')
    .orderBy('transactions.id')
    .execute();
}

/**
 * The sale's receipt token: `token` if the sale had none, else the one it has, so a link once
 * shown stays the link.
 */
export async function insertReceiptTokenIfAbsent(
  db: Db,
  sale: { transactionId: string; organizationId: string },
  token: string,
): Promise<string> {
  await db
    .insertInto('receipts')
    .values({ transaction_id: sale.transactionId, organization_id: sale.organizationId, token })
    .onConflict((conflict) => conflict.column('transaction_id').doNothing())
    .execute();
  const row = await db
    .selectFrom('receipts')
    .select('token')
    .where('transaction_id', '=', sale.transactionId)
    .executeTakeFirstOrThrow();
  return row.token;
}

export async function findReceipt(db: Db, token: string): Promise<ReceiptRow | undefined> {
  return db
    .selectFrom('receipts')
    .innerJoin('transactions', 'transactions.id', 'receipts.transaction_id')
    .innerJoin('invoices', 'invoices.id', 'transactions.invoice_id')
    .innerJoin('organizations', 'organizations.id', 'transactions.organization_id')
    .leftJoin('countries', 'countries.id', 'organizations.country_id')
    .select([
      'transactions.id as transactionId',
      'transactions.organization_id as organizationId',
      'transactions.invoice_id as invoiceId',
      'transactions.settled_at as settledAt',
      'transactions.source',
      'invoices.description',
      'transactions.currency',
      'transactions.bill_minor as billMinor',
      'transactions.tip_minor as tipMinor',
      'transactions.tax_minor as taxMinor',
      'transactions.total_minor as totalMinor',
      'transactions.total_msat as totalMsat',
      'transactions.rate_minor_per_btc as rateMinorPerBtc',
      'transactions.payment_hash as paymentHash',
      'organizations.name as organizationName',
      'countries.code as countryCode',
      'organizations.time_zone as timeZone',
      'organizations.language',
    ])
    .where('receipts.token', '=', token)
    .executeTakeFirst();
}

/** The on-chain transactions that paid an invoice, in the order they were seen. */
export async function listInvoiceTxids(db: Db, invoiceId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('checkout_onchain_outputs')
    .select('txid')
    .distinct()
    .where('invoice_id', '=', invoiceId)
    .orderBy('txid')
    .execute();
  return rows.map((row) => row.txid);
}
