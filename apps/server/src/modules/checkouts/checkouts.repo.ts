import type { CheckoutStatus } from '@rayo/shared';
import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { CheckoutRow, InvoiceRow } from '../../db/schema.ts';

export type { CheckoutRow };

export type NewCheckout = {
  organization_id: string;
  virtual_bpt_id: string;
  kind: CheckoutRow['kind'];
  description: string;
  amount_currency: string;
  amount_minor: bigint;
  expires_at: Date | null;
  order_id: string | null;
  redirect_url: string | null;
  metadata: Record<string, unknown> | null;
  /** The same clock as `expires_at`, so that a checkout's life is exactly what was asked. */
  created_at: Date;
};

export async function insertCheckout(db: Db, checkout: NewCheckout): Promise<CheckoutRow> {
  return db
    .insertInto('checkouts')
    .values({ ...checkout, metadata: checkout.metadata === null ? null : JSON.stringify(checkout.metadata) })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/**
 * A live checkout by its public id, of any organization: the id is the link's only secret. A
 * settlement also finds deleted ones, whose payments still count.
 */
export async function findCheckout(
  db: Db,
  id: string,
  options: { lock?: boolean; includeDeleted?: boolean } = {},
): Promise<CheckoutRow | undefined> {
  return db
    .selectFrom('checkouts')
    .selectAll()
    .where('id', '=', id)
    .$if(options.includeDeleted !== true, (query) => query.where('deleted_at', 'is', null))
    .$if(options.lock === true, (query) => query.forUpdate())
    .executeTakeFirst();
}

/** The store checkout a ledger sale paid, if it paid one (kept when the checkout was deleted since). */
export async function findStoreCheckoutOfSale(db: Db, transactionId: string): Promise<CheckoutRow | undefined> {
  return db
    .selectFrom('transactions')
    .innerJoin('invoices', 'invoices.id', 'transactions.invoice_id')
    .innerJoin('checkouts', 'checkouts.id', 'invoices.source_id')
    .selectAll('checkouts')
    .where('transactions.id', '=', transactionId)
    .where('invoices.source', '=', 'checkout')
    .where('checkouts.kind', '=', 'store')
    .executeTakeFirst();
}

export async function findOrganizationCheckout(
  db: Db,
  organizationId: string,
  id: string,
): Promise<CheckoutRow | undefined> {
  return db
    .selectFrom('checkouts')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
}

/** A store's checkout for its order id, kept so that a retried request gets the same one. */
export async function findStoreCheckoutByOrderId(
  db: Db,
  organizationId: string,
  orderId: string,
): Promise<CheckoutRow | undefined> {
  return db
    .selectFrom('checkouts')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('kind', '=', 'store')
    .where('order_id', '=', orderId)
    .executeTakeFirst();
}

export type PaymentLinkRow = CheckoutRow & { virtual_bpt_name: string };

function selectPaymentLinks(db: Db, organizationId: string) {
  return db
    .selectFrom('checkouts')
    .innerJoin('virtual_bpts', 'virtual_bpts.id', 'checkouts.virtual_bpt_id')
    .selectAll('checkouts')
    .select('virtual_bpts.name as virtual_bpt_name')
    .where('checkouts.organization_id', '=', organizationId)
    .where('checkouts.kind', '=', 'payment_link')
    .where('checkouts.deleted_at', 'is', null)
    .where('virtual_bpts.deleted_at', 'is', null)
    .orderBy('checkouts.created_at', 'desc')
    .orderBy('checkouts.id');
}

export async function listVirtualBptPaymentLinks(
  db: Db,
  organizationId: string,
  virtualBptId: string,
): Promise<PaymentLinkRow[]> {
  return selectPaymentLinks(db, organizationId).where('checkouts.virtual_bpt_id', '=', virtualBptId).execute();
}

/** The payment links of every live virtual BPT whose live terminal sells for the account. */
export async function listAccountPaymentLinks(
  db: Db,
  organizationId: string,
  accountId: string,
): Promise<PaymentLinkRow[]> {
  return selectPaymentLinks(db, organizationId)
    .innerJoin('bpts', 'bpts.id', 'virtual_bpts.bpt_id')
    .where('bpts.account_id', '=', accountId)
    .where('bpts.deleted_at', 'is', null)
    .execute();
}

export async function softDeletePaymentLink(db: Db, organizationId: string, id: string, now: Date): Promise<boolean> {
  const result = await db
    .updateTable('checkouts')
    .set({ deleted_at: now })
    .where('organization_id', '=', organizationId)
    .where('id', '=', id)
    .where('kind', '=', 'payment_link')
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/**
 * The checkout's Lightning invoices, newest first. On-chain payments are invoice rows too
 * (`onchain:` payment hashes, written by the chain watch), but nothing to show as a QR.
 */
export async function listCheckoutLightningInvoices(db: Db, checkoutId: string): Promise<InvoiceRow[]> {
  return db
    .selectFrom('invoices')
    .selectAll()
    .where('source', 'in', ['payment_link', 'checkout'])
    .where('source_id', '=', checkoutId)
    .where('payment_hash', 'not like', 'onchain:%')
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .execute();
}

/** What the settled payments of a checkout add up to, and the Lightning ones among them. */
export type SettledPayments = { msat: bigint; minor: bigint; lightningMsat: bigint; lightningMinor: bigint };

const NO_PAYMENTS: SettledPayments = { msat: 0n, minor: 0n, lightningMsat: 0n, lightningMinor: 0n };

/**
 * The settled payments of each checkout, in msat and in the minor units they were booked at (the
 * terminal's currency), all of them and those by Lightning; checkouts paid nothing are left out.
 */
export async function sumSettledPayments(db: Db, checkoutIds: string[]): Promise<Map<string, SettledPayments>> {
  if (checkoutIds.length === 0) return new Map();
  const lightning = sql<boolean>`payment_hash not like 'onchain:%'`;
  const rows = await db
    .selectFrom('invoices')
    .select([
      'source_id',
      sql<string>`sum(amount_msat)`.as('msat'),
      sql<string>`sum(total_minor)`.as('minor'),
      sql<string>`coalesce(sum(amount_msat) filter (where ${lightning}), 0)`.as('lightning_msat'),
      sql<string>`coalesce(sum(total_minor) filter (where ${lightning}), 0)`.as('lightning_minor'),
    ])
    .where('source', 'in', ['payment_link', 'checkout'])
    .where('source_id', 'in', checkoutIds)
    .where('status', '=', 'settled')
    .groupBy('source_id')
    .execute();
  return new Map(
    rows.map((row) => [
      row.source_id as string,
      {
        msat: BigInt(row.msat),
        minor: BigInt(row.minor),
        lightningMsat: BigInt(row.lightning_msat),
        lightningMinor: BigInt(row.lightning_minor),
      },
    ]),
  );
}

/** The settled payments of a checkout, each in msat and in the minor units it was booked at. */
export async function listSettledPayments(db: Db, checkoutId: string): Promise<Array<{ msat: bigint; minor: bigint }>> {
  const rows = await db
    .selectFrom('invoices')
    .select(['amount_msat', 'total_minor'])
    .where('source', 'in', ['payment_link', 'checkout'])
    .where('source_id', '=', checkoutId)
    .where('status', '=', 'settled')
    .execute();
  return rows.map((row) => ({ msat: BigInt(row.amount_msat), minor: BigInt(row.total_minor) }));
}

/** `sumSettledPayments` of one checkout. */
export async function sumCheckoutSettledPayments(db: Db, checkoutId: string): Promise<SettledPayments> {
  return (await sumSettledPayments(db, [checkoutId])).get(checkoutId) ?? NO_PAYMENTS;
}

/** The invoice that paid the checkout, if one did. */
export async function findPayingInvoice(db: Db, checkout: CheckoutRow): Promise<InvoiceRow | undefined> {
  if (!checkout.paid_at) return undefined;
  return db
    .selectFrom('invoices')
    .selectAll()
    .where('source', 'in', ['payment_link', 'checkout'])
    .where('source_id', '=', checkout.id)
    .where('status', '=', 'settled')
    .orderBy('settled_at')
    .orderBy('id')
    .executeTakeFirst();
}

/** Records a first payment; the row is already locked by the settlement. */
export async function markCheckoutPaid(
  db: Db,
  id: string,
  payment: { paidVia: 'lightning' | 'onchain'; paidAt: Date; late: boolean },
): Promise<void> {
  await db
    .updateTable('checkouts')
    .set({ status: 'paid', paid_via: payment.paidVia, paid_at: payment.paidAt, late_payment: payment.late })
    .where('id', '=', id)
    .execute();
}

/** Moves a checkout between awaiting payment and processing; false when it was not in the state left. */
export async function setCheckoutProcessing(db: Db, checkoutId: string, processing: boolean): Promise<boolean> {
  const result = await db
    .updateTable('checkouts')
    .set({ status: processing ? 'processing' : 'awaiting_payment' })
    .where('id', '=', checkoutId)
    .where('status', '=', processing ? 'awaiting_payment' : 'processing')
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function flagExtraPayment(db: Db, id: string): Promise<void> {
  await db.updateTable('checkouts').set({ extra_payment: true }).where('id', '=', id).execute();
}

/** Store checkouts still waiting past their expiry become expired; returns them. */
export async function expireCheckouts(db: Db, now: Date): Promise<CheckoutRow[]> {
  return db
    .updateTable('checkouts')
    .set({ status: 'expired' })
    .where('kind', '=', 'store')
    .where('status', '=', 'awaiting_payment')
    .where('expires_at', '<=', now)
    .returningAll()
    .execute();
}

export const CHECKOUT_EVENTS_CHANNEL = 'checkout_events';

/** Delivered to every listening server process when the surrounding transaction commits. */
export async function notifyCheckoutStatus(db: Db, id: string, status: CheckoutStatus): Promise<void> {
  await sql`select pg_notify(${CHECKOUT_EVENTS_CHANNEL}, ${JSON.stringify({ id, status })})`.execute(db);
}
