import type { InvoiceStatus } from '@rayo/shared';
import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { InvoiceRow } from '../../db/schema.ts';

/**
 * Moves the invoice to settled unless it already is, and returns it only when this call did
 * the move: the row lock makes concurrent settlers of one payment agree on a single winner.
 * An expired invoice can still settle: the money arrived.
 */
export async function markInvoiceSettled(
  db: Db,
  paymentHash: string,
  settledAt: Date,
): Promise<InvoiceRow | undefined> {
  return db
    .updateTable('invoices')
    .set({ status: 'settled', settled_at: settledAt })
    .where('payment_hash', '=', paymentHash)
    .where('status', 'in', ['pending', 'expired'])
    .returningAll()
    .executeTakeFirst();
}

/** A pending invoice whose life ends at `now` rather than at its own expiry, if that is later. */
export async function endInvoiceLife(db: Db, paymentHash: string, now: Date): Promise<void> {
  await db
    .updateTable('invoices')
    .set({ expires_at: now })
    .where('payment_hash', '=', paymentHash)
    .where('status', '=', 'pending')
    .where('expires_at', '>', now)
    .execute();
}

/** Pending invoices past their expiry become expired; returns their ids. */
export async function expireInvoices(db: Db, now: Date): Promise<string[]> {
  const rows = await db
    .updateTable('invoices')
    .set({ status: 'expired' })
    .where('status', '=', 'pending')
    .where('expires_at', '<=', now)
    .returning('id')
    .execute();
  return rows.map((row) => row.id);
}

/**
 * Invoices a payment may still arrive for (pending, or expired within the last day), oldest
 * first, `limit` at a time: the next page starts after the invoice `afterId`. The position is read
 * in SQL because `created_at` has microseconds that a JavaScript Date would round away. On-chain
 * payments (`onchain:` hashes) are left out: the chain watch settles them, and the Lightning node
 * never heard of them.
 */
export async function listOpenInvoices(db: Db, now: Date, limit: number, afterId?: string): Promise<InvoiceRow[]> {
  return db
    .selectFrom('invoices')
    .selectAll()
    .where('payment_hash', 'not like', 'onchain:%')
    .where((eb) =>
      eb.or([
        eb('status', '=', 'pending'),
        eb.and([eb('status', '=', 'expired'), eb('expires_at', '>', new Date(now.getTime() - 86_400_000))]),
      ]),
    )
    .$if(afterId !== undefined, (query) =>
      query.where(sql<boolean>`(created_at, id) > (select created_at, id from invoices where id = ${afterId})`),
    )
    .orderBy('created_at')
    .orderBy('id')
    .limit(limit)
    .execute();
}

export async function readSettleCursor(db: Db, backend: string): Promise<bigint> {
  const row = await db
    .selectFrom('lightning_cursors')
    .select('settle_index')
    .where('backend', '=', backend)
    .executeTakeFirst();
  return row ? BigInt(row.settle_index) : 0n;
}

/** Never moves the cursor backwards, whatever order concurrent settlers commit in. */
export async function advanceSettleCursor(db: Db, backend: string, settleIndex: bigint): Promise<void> {
  await db
    .insertInto('lightning_cursors')
    .values({ backend, settle_index: settleIndex })
    .onConflict((oc) =>
      oc.column('backend').doUpdateSet({
        settle_index: sql`greatest(lightning_cursors.settle_index, excluded.settle_index)`,
      }),
    )
    .execute();
}

export const INVOICE_EVENTS_CHANNEL = 'invoice_events';

/** Delivered to every listening server process when the surrounding transaction commits. */
export async function notifyInvoiceStatus(db: Db, id: string, status: InvoiceStatus): Promise<void> {
  await sql`select pg_notify(${INVOICE_EVENTS_CHANNEL}, ${JSON.stringify({ id, status })})`.execute(db);
}
