import type { RefundMethod, RefundState } from '@rayo/shared';
import { sql } from 'kysely';
import type { Db, ReadDb } from '../../db/database.ts';
import { onAccountLinkedTo } from '../../db/manager-scope.ts';

export type RefundRow = {
  id: string;
  organizationId: string;
  transactionId: string;
  amountMsat: bigint;
  fiatMinor: bigint;
  currency: string;
  method: RefundMethod;
  state: RefundState;
  idempotencyKey: string;
  /** The refund link's secret; null for a refund paid to a destination the customer gave. */
  k1: string | null;
  destination: string | null;
  createdByEmail: string | null;
  createdAt: Date;
  paymentRequest: string | null;
  paymentDescription: string | null;
  paymentHash: string | null;
  invoiceExpiresAt: Date | null;
  paidAt: Date | null;
  /** The on-chain payout batch that sends an on-chain refund (decision 0063). */
  batchId: string | null;
};

const COLUMNS = [
  'id',
  'organization_id',
  'transaction_id',
  'amount_msat',
  'fiat_minor',
  'currency',
  'method',
  'state',
  'idempotency_key',
  'k1',
  'destination',
  'created_by_email',
  'created_at',
  'payment_request',
  'payment_description',
  'payment_hash',
  'invoice_expires_at',
  'paid_at',
  'batch_id',
] as const;

type Selected = {
  id: string;
  organization_id: string;
  transaction_id: string;
  amount_msat: string;
  fiat_minor: string;
  currency: string;
  method: RefundMethod;
  state: RefundState;
  idempotency_key: string;
  k1: string | null;
  destination: string | null;
  created_by_email: string | null;
  created_at: Date;
  payment_request: string | null;
  payment_description: string | null;
  payment_hash: string | null;
  invoice_expires_at: Date | null;
  paid_at: Date | null;
  batch_id: string | null;
};

function toRefund(row: Selected): RefundRow {
  return {
    id: row.id,
    organizationId: row.organization_id,
    transactionId: row.transaction_id,
    amountMsat: BigInt(row.amount_msat),
    fiatMinor: BigInt(row.fiat_minor),
    currency: row.currency,
    method: row.method,
    state: row.state,
    idempotencyKey: row.idempotency_key,
    k1: row.k1,
    destination: row.destination,
    createdByEmail: row.created_by_email,
    createdAt: row.created_at,
    paymentRequest: row.payment_request,
    paymentDescription: row.payment_description,
    paymentHash: row.payment_hash,
    invoiceExpiresAt: row.invoice_expires_at,
    paidAt: row.paid_at,
    batchId: row.batch_id,
  };
}

export type SaleRow = {
  transactionId: string;
  accountId: string;
  totalMsat: bigint;
  totalMinor: bigint;
  currency: string;
  organizationBlocked: boolean;
};

/**
 * The paid sale a refund names, by its ledger transaction's id or its invoice's id, inside the
 * caller's organization (and, for a manager, on an account linked to them). With `lock`, its row
 * stays locked until the transaction ends, so refunds of one sale are added one at a time.
 */
export async function findSale(
  db: Db,
  input: { organizationId: string; saleId: string; managerUserId?: string; lock?: boolean },
): Promise<SaleRow | null> {
  let query = db
    .selectFrom('transactions')
    .innerJoin('organizations', 'organizations.id', 'transactions.organization_id')
    .select([
      'transactions.id',
      'transactions.account_id',
      'transactions.total_msat',
      'transactions.total_minor',
      'transactions.currency',
      'organizations.blocked',
    ])
    .where('transactions.organization_id', '=', input.organizationId)
    .where((eb) => eb.or([eb('transactions.id', '=', input.saleId), eb('transactions.invoice_id', '=', input.saleId)]));
  if (input.managerUserId) query = query.where(onAccountLinkedTo(input.managerUserId, 'transactions.account_id'));
  if (input.lock) query = query.forUpdate('transactions');
  const row = await query.executeTakeFirst();
  if (!row) return null;
  return {
    transactionId: row.id,
    accountId: row.account_id,
    totalMsat: BigInt(row.total_msat),
    totalMinor: BigInt(row.total_minor),
    currency: row.currency,
    organizationBlocked: row.blocked,
  };
}

/** Whether the organization has an invoice of this id that no payment has settled. */
export async function isUnpaidInvoice(db: Db, organizationId: string, invoiceId: string): Promise<boolean> {
  const row = await db
    .selectFrom('invoices')
    .select('id')
    .where('id', '=', invoiceId)
    .where('organization_id', '=', organizationId)
    .where('settled_at', 'is', null)
    .executeTakeFirst();
  return row !== undefined;
}

/** What the sale's refunds add up to, in msat and in its currency. */
export async function sumSaleRefunds(db: Db, transactionId: string): Promise<{ msat: bigint; minor: bigint }> {
  const row = await db
    .selectFrom('refunds')
    .select([
      sql<string>`coalesce(sum(amount_msat), 0)`.as('msat'),
      sql<string>`coalesce(sum(fiat_minor), 0)`.as('minor'),
    ])
    .where('transaction_id', '=', transactionId)
    .executeTakeFirstOrThrow();
  return { msat: BigInt(row.msat), minor: BigInt(row.minor) };
}

/** What the refunds of every sale of a store checkout add up to, in msat and in the sales' currency. */
export async function sumCheckoutRefunds(db: Db, checkoutId: string): Promise<{ msat: bigint; minor: bigint }> {
  const row = await db
    .selectFrom('refunds')
    .innerJoin('transactions', 'transactions.id', 'refunds.transaction_id')
    .innerJoin('invoices', 'invoices.id', 'transactions.invoice_id')
    .select([
      sql<string>`coalesce(sum(refunds.amount_msat), 0)`.as('msat'),
      sql<string>`coalesce(sum(refunds.fiat_minor), 0)`.as('minor'),
    ])
    .where('invoices.source', '=', 'checkout')
    .where('invoices.source_id', '=', checkoutId)
    .executeTakeFirstOrThrow();
  return { msat: BigInt(row.msat), minor: BigInt(row.minor) };
}

export async function findRefundByKey(
  db: Db,
  organizationId: string,
  idempotencyKey: string,
): Promise<RefundRow | null> {
  const row = await db
    .selectFrom('refunds')
    .select(COLUMNS)
    .where('organization_id', '=', organizationId)
    .where('idempotency_key', '=', idempotencyKey)
    .executeTakeFirst();
  return row ? toRefund(row as Selected) : null;
}

export async function insertRefund(
  db: Db,
  input: {
    organizationId: string;
    transactionId: string;
    amountMsat: bigint;
    fiatMinor: bigint;
    currency: string;
    idempotencyKey: string;
    createdByUserId: string;
    createdByEmail: string | null;
    /** A refund link's k1, or the customer's destination and the invoice it gave, stored unpaid. */
    payTo:
      | { method: 'lnurl-withdraw'; k1: string }
      | { method: 'lightning-invoice' | 'lightning-address'; destination: string; invoice: RefundInvoice }
      /** Sent by the payout batch `batchId`, written in the same transaction (decision 0063). */
      | { method: 'onchain-address'; destination: string; batchId: string };
  },
): Promise<RefundRow> {
  const { payTo } = input;
  const row = await db
    .insertInto('refunds')
    .values({
      organization_id: input.organizationId,
      transaction_id: input.transactionId,
      amount_msat: input.amountMsat,
      fiat_minor: input.fiatMinor,
      currency: input.currency,
      method: payTo.method,
      idempotency_key: input.idempotencyKey,
      created_by_user_id: input.createdByUserId,
      created_by_email: input.createdByEmail,
      ...(payTo.method === 'lnurl-withdraw'
        ? { k1: payTo.k1 }
        : payTo.method === 'onchain-address'
          ? { state: 'paying', destination: payTo.destination, batch_id: payTo.batchId }
          : {
              state: 'paying',
              destination: payTo.destination,
              payment_request: payTo.invoice.paymentRequest,
              payment_hash: payTo.invoice.paymentHash,
              payment_description: payTo.invoice.description ?? null,
              invoice_expires_at: payTo.invoice.expiresAt,
            }),
    })
    .returning(COLUMNS)
    .executeTakeFirstOrThrow();
  return toRefund(row as Selected);
}

/** The txid each batch sends now (a fee bump replaces it), by batch id. */
export async function findBatchTxids(db: Db, batchIds: string[]): Promise<Map<string, string>> {
  if (batchIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('onchain_payout_batches')
    .select(['id', 'txid'])
    .where('id', 'in', batchIds)
    .execute();
  return new Map(rows.map((row) => [row.id, row.txid]));
}

export async function listSaleRefunds(db: Db, transactionId: string): Promise<RefundRow[]> {
  const rows = await db
    .selectFrom('refunds')
    .select(COLUMNS)
    .where('transaction_id', '=', transactionId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map((row) => toRefund(row as Selected));
}

export async function findRefundByK1(db: Db, k1: string): Promise<RefundRow | null> {
  const row = await db.selectFrom('refunds').select(COLUMNS).where('k1', '=', k1).executeTakeFirst();
  return row ? toRefund(row as Selected) : null;
}

export async function findRefund(db: Db, id: string): Promise<RefundRow | null> {
  const row = await db.selectFrom('refunds').select(COLUMNS).where('id', '=', id).executeTakeFirst();
  return row ? toRefund(row as Selected) : null;
}

/**
 * Takes the customer's invoice for an open refund link: one compare-and-set, so of two racing
 * callbacks one stores its invoice and the other is refused. Null when the link is not open.
 */
export type RefundInvoice = { paymentRequest: string; paymentHash: string; expiresAt: Date; description?: string };

/** Whether another refund was already given the invoice of `paymentHash`. */
export async function isRefundInvoiceTaken(db: Db, paymentHash: string): Promise<boolean> {
  const row = await db.selectFrom('refunds').select('id').where('payment_hash', '=', paymentHash).executeTakeFirst();
  return row !== undefined;
}

export async function claimRefundLink(db: Db, k1: string, invoice: RefundInvoice): Promise<RefundRow | null> {
  const row = await db
    .updateTable('refunds')
    .set({
      state: 'paying',
      payment_request: invoice.paymentRequest,
      payment_hash: invoice.paymentHash,
      invoice_expires_at: invoice.expiresAt,
    })
    .where('k1', '=', k1)
    .where('state', '=', 'open')
    .returning(COLUMNS)
    .executeTakeFirst();
  return row ? toRefund(row as Selected) : null;
}

/** The payment of `paymentHash` succeeded: final. False when another process recorded it first. */
export async function markRefundPaid(
  db: Db,
  id: string,
  payment: { paymentHash: string; preimage: string; feeMsat: bigint },
): Promise<boolean> {
  const result = await db
    .updateTable('refunds')
    .set({
      state: 'paid',
      preimage: payment.preimage,
      fee_msat: payment.feeMsat,
      last_error: null,
      paid_at: sql`now()`,
    })
    .where('id', '=', id)
    .where('state', '=', 'paying')
    .where('payment_hash', '=', payment.paymentHash)
    .executeTakeFirst();
  return result.numUpdatedRows === 1n;
}

/** A failed attempt at paying the customer's invoice, kept for the next one to read. */
export async function recordRefundFailure(db: Db, id: string, error: string): Promise<void> {
  await db
    .updateTable('refunds')
    .set({ attempts: sql`attempts + 1`, last_error: error })
    .where('id', '=', id)
    .where('state', '=', 'paying')
    .execute();
}

/**
 * Opens the link again after a payment of `paymentHash` that can no longer complete, so the
 * customer can withdraw with a new invoice. Guarded by the hash, so a newer claim is kept. A
 * refund that was paid to an invoice the customer gave becomes a refund link with `k1`.
 */
export async function reopenRefundLink(db: Db, id: string, paymentHash: string, k1: string): Promise<boolean> {
  const result = await db
    .updateTable('refunds')
    .set({
      state: 'open',
      method: 'lnurl-withdraw',
      k1: sql`coalesce(k1, ${k1})`,
      destination: null,
      payment_request: null,
      payment_hash: null,
      payment_description: null,
      invoice_expires_at: null,
    })
    .where('id', '=', id)
    .where('state', '=', 'paying')
    .where('payment_hash', '=', paymentHash)
    .executeTakeFirst();
  return result.numUpdatedRows === 1n;
}

/** Refunds whose payment was started and not yet recorded as done, oldest first. */
export async function listPayingRefunds(db: Db, limit: number): Promise<RefundRow[]> {
  const rows = await db
    .selectFrom('refunds')
    .select(COLUMNS)
    .where('state', '=', 'paying')
    .orderBy('created_at')
    .limit(limit)
    .execute();
  return rows.map((row) => toRefund(row as Selected));
}

/**
 * The organization's refunds whose Lightning part no Lightning payout has taken yet, locked until
 * the transaction ends, for the payout being made to be smaller by them.
 */
export async function lockRefundsOwed(db: Db, organizationId: string): Promise<{ id: string; amountMsat: bigint }[]> {
  const rows = await db
    .selectFrom('refunds')
    .select(['id', 'lightning_msat'])
    .where('organization_id', '=', organizationId)
    .where('lightning_payout_id', 'is', null)
    .where('lightning_msat', '>', '0')
    .forUpdate()
    .execute();
  return rows.map((row) => ({ id: row.id, amountMsat: BigInt(row.lightning_msat) }));
}

/**
 * Every organization's refunds whose on-chain part no on-chain payout has taken yet, locked until
 * the transaction ends, for the batch being built to pay each organization less by them.
 */
export async function lockOnchainRefundsOwed(
  db: Db,
): Promise<{ id: string; organizationId: string; amountMsat: bigint }[]> {
  const rows = await db
    .selectFrom('refunds')
    .select(['id', 'organization_id', 'onchain_msat'])
    .where('onchain_payout_id', 'is', null)
    .where('onchain_msat', '>', '0')
    .forUpdate()
    .execute();
  return rows.map((row) => ({ id: row.id, organizationId: row.organization_id, amountMsat: BigInt(row.onchain_msat) }));
}

export async function chargeRefundsToOnchainPayout(db: Db, refundIds: string[], payoutId: string): Promise<void> {
  if (refundIds.length === 0) return;
  await db.updateTable('refunds').set({ onchain_payout_id: payoutId }).where('id', 'in', refundIds).execute();
}

export async function chargeRefundsToPayout(db: Db, refundIds: string[], payoutId: string): Promise<void> {
  if (refundIds.length === 0) return;
  await db.updateTable('refunds').set({ lightning_payout_id: payoutId }).where('id', 'in', refundIds).execute();
}

/** A cancelled payout's refunds are owed again, so the next payout takes them. */
export async function releasePayoutRefunds(db: Db, payoutId: string): Promise<void> {
  await db
    .updateTable('refunds')
    .set({ lightning_payout_id: null })
    .where('lightning_payout_id', '=', payoutId)
    .execute();
}

/**
 * What the refunds of the filter's sales take from their "to disburse": the Lightning and on-chain
 * parts until the payout that took each is sent, and the fiat part in `currency` until a fiat
 * transfer took it. The sales are those the dashboard's filter covers, by the time they settled.
 */
export async function sumRefundsNotDisbursed(
  db: ReadDb,
  filter: { organizationId: string; accountIds: string[] | null; from: Date | null; to: Date | null; currency: string },
): Promise<{ msat: bigint; fiatMinor: bigint }> {
  let query = db
    .selectFrom('refunds')
    .innerJoin('transactions', 'transactions.id', 'refunds.transaction_id')
    .leftJoin('payouts as lightning', 'lightning.id', 'refunds.lightning_payout_id')
    .leftJoin('payouts as onchain', 'onchain.id', 'refunds.onchain_payout_id')
    .select([
      sql<string>`coalesce(sum(refunds.lightning_msat) filter (where lightning.state is distinct from 'sent'), 0)
        + coalesce(sum(refunds.onchain_msat) filter (where onchain.state is distinct from 'sent'), 0)`.as('msat'),
      sql<string>`coalesce(sum(refunds.fiat_share_minor) filter (where refunds.fiat_taken_at is null
        and refunds.currency = ${filter.currency}), 0)`.as('fiat_minor'),
    ])
    .where('refunds.organization_id', '=', filter.organizationId);
  if (filter.accountIds !== null) query = query.where('transactions.account_id', 'in', filter.accountIds);
  if (filter.from !== null) query = query.where('transactions.settled_at', '>=', filter.from);
  if (filter.to !== null) query = query.where('transactions.settled_at', '<', filter.to);
  const row = await query.executeTakeFirstOrThrow();
  return { msat: BigInt(row.msat), fiatMinor: BigInt(row.fiat_minor) };
}
