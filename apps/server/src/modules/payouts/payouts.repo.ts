import { OPEN_PAYOUT_STATES, type PayoutState } from '@rayo/shared';
import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { PayoutKind } from '../../db/schema.ts';
import { statesBefore } from '../../domain/payout-state.ts';

export type PayoutRow = {
  id: string;
  organizationId: string;
  kind: PayoutKind;
  destination: string;
  amountMsat: bigint;
  feeMsat: bigint;
  state: PayoutState;
  attempts: number;
  nextAttemptAt: Date;
  lastError: string | null;
  paymentRequest: string | null;
  paymentHash: string | null;
  invoiceExpiresAt: Date | null;
  preimage: string | null;
  txid: string | null;
  sentAt: Date | null;
  createdAt: Date;
  invoiceMetadata: string | null;
};

const COLUMNS = [
  'id',
  'organization_id',
  'kind',
  'destination',
  'amount_msat',
  'fee_msat',
  'state',
  'attempts',
  'next_attempt_at',
  'last_error',
  'payment_request',
  'payment_hash',
  'invoice_expires_at',
  'preimage',
  'txid',
  'sent_at',
  'created_at',
  'invoice_metadata',
] as const;

type Selected = {
  id: string;
  organization_id: string;
  kind: PayoutKind;
  destination: string;
  amount_msat: string;
  fee_msat: string;
  state: PayoutState;
  attempts: number;
  next_attempt_at: Date;
  last_error: string | null;
  payment_request: string | null;
  payment_hash: string | null;
  invoice_expires_at: Date | null;
  preimage: string | null;
  txid: string | null;
  sent_at: Date | null;
  created_at: Date;
  invoice_metadata: string | null;
};

function toPayout(row: Selected): PayoutRow {
  return {
    id: row.id,
    organizationId: row.organization_id,
    kind: row.kind,
    destination: row.destination,
    amountMsat: BigInt(row.amount_msat),
    feeMsat: BigInt(row.fee_msat),
    state: row.state,
    attempts: row.attempts,
    nextAttemptAt: row.next_attempt_at,
    lastError: row.last_error,
    paymentRequest: row.payment_request,
    paymentHash: row.payment_hash,
    invoiceExpiresAt: row.invoice_expires_at,
    preimage: row.preimage,
    txid: row.txid,
    sentAt: row.sent_at,
    createdAt: row.created_at,
    invoiceMetadata: row.invoice_metadata,
  };
}

/** A sale's share of `kind` that no payout carries yet. */
export function unpaidShares(db: Db, kind: PayoutKind) {
  return db
    .selectFrom('transactions as t')
    .where(`t.${kind}_msat`, '>', '0')
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('payout_transactions as pt')
            .select('pt.transaction_id')
            .whereRef('pt.transaction_id', '=', 't.id')
            .where('pt.kind', '=', kind),
        ),
      ),
    );
}

/** Organizations whose unpaid Lightning shares reach `minMsat` and that have somewhere to send them. */
export async function listOrganizationsDueLightningPayout(db: Db, minMsat: bigint): Promise<string[]> {
  const rows = await unpaidShares(db, 'lightning')
    .innerJoin('organizations as o', 'o.id', 't.organization_id')
    .where('o.lightning_address', 'is not', null)
    .where('o.blocked', '=', false)
    .select('t.organization_id')
    .groupBy('t.organization_id')
    .having(sql<boolean>`sum(t.lightning_msat) >= ${minMsat.toString()}::bigint`)
    .execute();
  return rows.map((row) => row.organization_id);
}

/**
 * The organization's Lightning address and whether it is blocked, its row locked until the
 * caller's transaction ends: two processes making its payout at once take turns, and the second
 * finds nothing left to pay.
 */
export async function lockOrganizationForLightningPayout(
  trx: Db,
  organizationId: string,
): Promise<{ lightningAddress: string | null; blocked: boolean } | undefined> {
  const row = await trx
    .selectFrom('organizations')
    .select(['lightning_address', 'blocked'])
    .where('id', '=', organizationId)
    .forUpdate()
    .executeTakeFirst();
  return row && { lightningAddress: row.lightning_address, blocked: row.blocked };
}

/** The organization's sales whose Lightning share no payout carries yet, locked until the caller's transaction ends. */
export async function lockUnpaidLightningShares(
  trx: Db,
  organizationId: string,
): Promise<{ id: string; amountMsat: bigint }[]> {
  const rows = await unpaidShares(trx, 'lightning')
    .where('t.organization_id', '=', organizationId)
    .select(['t.id', 't.lightning_msat'])
    .forUpdate()
    .execute();
  return rows.map((row) => ({ id: row.id, amountMsat: BigInt(row.lightning_msat) }));
}

/** A pending Lightning payout and the shares it carries, in the caller's transaction. */
export async function insertLightningPayout(
  trx: Db,
  input: {
    organizationId: string;
    destination: string;
    amountMsat: bigint;
    idempotencyKey: string;
    shares: { id: string; amountMsat: bigint }[];
  },
): Promise<PayoutRow> {
  const payout = await trx
    .insertInto('payouts')
    .values({
      organization_id: input.organizationId,
      kind: 'lightning',
      destination: input.destination,
      amount_msat: input.amountMsat,
      fee_msat: 0n,
      idempotency_key: input.idempotencyKey,
    })
    .returning(COLUMNS)
    .executeTakeFirstOrThrow();
  await insertPayoutShares(trx, payout.id, 'lightning', input.shares);
  return toPayout(payout as Selected);
}

/** The sales' shares a payout carries; the primary key of payout_transactions refuses a share counted twice. */
export async function insertPayoutShares(
  trx: Db,
  payoutId: string,
  kind: PayoutKind,
  shares: { id: string; amountMsat: bigint }[],
): Promise<void> {
  await trx
    .insertInto('payout_transactions')
    .values(
      shares.map((share) => ({ transaction_id: share.id, kind, payout_id: payoutId, amount_msat: share.amountMsat })),
    )
    .execute();
}

/** Lightning payouts the job should work on now, oldest first. */
export async function listDueLightningPayouts(db: Db, now: Date, limit: number): Promise<PayoutRow[]> {
  const rows = await db
    .selectFrom('payouts')
    .select(COLUMNS)
    .where('kind', '=', 'lightning')
    .where('state', 'in', OPEN_PAYOUT_STATES)
    .where('next_attempt_at', '<=', now)
    .orderBy('next_attempt_at')
    .limit(limit)
    .execute();
  return rows.map((row) => toPayout(row as Selected));
}

export async function findPayout(db: Db, id: string): Promise<PayoutRow | undefined> {
  const row = await db.selectFrom('payouts').select(COLUMNS).where('id', '=', id).executeTakeFirst();
  return row ? toPayout(row as Selected) : undefined;
}

/**
 * Stores the invoice an attempt is about to pay, in place of `replacing` (null for the first).
 * Only one of two racing attempts stores its invoice; the other gets false and pays nothing.
 */
export async function storePayoutInvoice(
  db: Db,
  id: string,
  replacing: string | null,
  invoice: { paymentRequest: string; paymentHash: string; expiresAt: Date; metadata: string },
): Promise<boolean> {
  const result = await db
    .updateTable('payouts')
    .set({
      payment_request: invoice.paymentRequest,
      payment_hash: invoice.paymentHash,
      invoice_expires_at: invoice.expiresAt,
      invoice_metadata: invoice.metadata,
      updated_at: sql`now()`,
    })
    .where('id', '=', id)
    .where('state', 'in', OPEN_PAYOUT_STATES)
    .where(sql<boolean>`payment_hash is not distinct from ${replacing}`)
    .executeTakeFirst();
  return result.numUpdatedRows === 1n;
}

/** The payment of `paymentHash` succeeded: final. False when the payout had left the open states. */
export async function markPayoutSent(
  db: Db,
  id: string,
  payment: { paymentHash: string; preimage: string; feeMsat: bigint },
): Promise<boolean> {
  const result = await db
    .updateTable('payouts')
    .set({
      state: 'sent',
      preimage: payment.preimage,
      fee_msat: payment.feeMsat,
      last_error: null,
      sent_at: sql`now()`,
      updated_at: sql`now()`,
    })
    .where('id', '=', id)
    .where('state', 'in', statesBefore('sent'))
    .where('payment_hash', '=', payment.paymentHash)
    .executeTakeFirst();
  return result.numUpdatedRows === 1n;
}

/** A failed attempt: counted, with the time of the next one. Returns the attempts so far, or null. */
export async function recordPayoutFailure(
  db: Db,
  id: string,
  failure: { error: string; retryInSeconds: (attempts: number) => number },
): Promise<number | null> {
  return db.transaction().execute(async (trx) => {
    const row = await trx
      .updateTable('payouts')
      .set({ state: 'failed', attempts: sql`attempts + 1`, last_error: failure.error, updated_at: sql`now()` })
      .where('id', '=', id)
      .where('state', 'in', statesBefore('failed'))
      .returning('attempts')
      .executeTakeFirst();
    if (!row) return null;
    await trx
      .updateTable('payouts')
      .set({ next_attempt_at: sql`now() + make_interval(secs => ${failure.retryInSeconds(row.attempts)})` })
      .where('id', '=', id)
      .execute();
    return row.attempts;
  });
}

/** An attempt found the payment still in flight: look again after `seconds`. */
export async function postponePayout(db: Db, id: string, seconds: number): Promise<void> {
  await db
    .updateTable('payouts')
    .set({ next_attempt_at: sql`now() + make_interval(secs => ${seconds})`, updated_at: sql`now()` })
    .where('id', '=', id)
    .where('state', 'in', OPEN_PAYOUT_STATES)
    .execute();
}

/** One page of an organization's payouts, newest first, and how many there are. */
export async function listOrganizationPayouts(
  db: Db,
  organizationId: string,
  page: { limit: number; offset: number },
): Promise<{ payouts: PayoutRow[]; total: number }> {
  const rows = await db
    .selectFrom('payouts')
    .select(COLUMNS)
    .where('organization_id', '=', organizationId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
  const count = await db
    .selectFrom('payouts')
    .select(sql<string>`count(*)`.as('count'))
    .where('organization_id', '=', organizationId)
    .executeTakeFirstOrThrow();
  return { payouts: rows.map((row) => toPayout(row as Selected)), total: Number(count.count) };
}

/** The fiat share of the organization's sales per currency, split by back office's mark paid. */
export async function sumFiatShares(
  db: Db,
  organizationId: string,
): Promise<{ currency: string; awaitingMinor: bigint; paidMinor: bigint }[]> {
  const rows = await db
    .selectFrom('transactions')
    .select([
      'currency',
      sql<string>`coalesce(sum(fiat_income_minor) filter (where not disbursed), 0)`.as('awaiting'),
      sql<string>`coalesce(sum(fiat_income_minor) filter (where disbursed), 0)`.as('paid'),
    ])
    .where('organization_id', '=', organizationId)
    .where('fiat_income_minor', '>', '0')
    .groupBy('currency')
    .orderBy('currency')
    .execute();
  return rows.map((row) => ({
    currency: row.currency,
    awaitingMinor: BigInt(row.awaiting),
    paidMinor: BigInt(row.paid),
  }));
}
