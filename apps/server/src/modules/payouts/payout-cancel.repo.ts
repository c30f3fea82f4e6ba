import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import { statesBefore } from '../../domain/payout-state.ts';

/**
 * Moves the payout to cancelled and gives its shares back (its payout_transactions rows go, as
 * migration 0024 says), so that the next batch pays them again; its caller gives back its refunds. Guarded by the invoice the caller
 * checked with the backend: if an attempt stored another one meanwhile, nothing changes and the
 * answer is false.
 */
export async function cancelPayoutRow(
  trx: Db,
  input: { organizationId: string; payoutId: string; paymentHash: string | null; reason: string },
): Promise<boolean> {
  const cancelled = await trx
    .updateTable('payouts')
    .set({ state: 'cancelled', last_error: input.reason.slice(0, 500), updated_at: sql`now()` })
    .where('id', '=', input.payoutId)
    .where('organization_id', '=', input.organizationId)
    .where('state', 'in', statesBefore('cancelled'))
    .where(sql<boolean>`payment_hash is not distinct from ${input.paymentHash}`)
    .executeTakeFirst();
  if (cancelled.numUpdatedRows !== 1n) return false;
  await trx.deleteFrom('payout_transactions').where('payout_id', '=', input.payoutId).execute();
  return true;
}

/** The organization's Lightning payouts still open (pending or failed) to an address other than `address` (every one when null). */
export async function listOpenLightningPayoutsElsewhere(
  trx: Db,
  organizationId: string,
  address: string | null,
): Promise<{ id: string; paymentHash: string | null; invoiceExpiresAt: Date | null }[]> {
  const rows = await trx
    .selectFrom('payouts')
    .select(['id', 'payment_hash', 'invoice_expires_at'])
    .where('organization_id', '=', organizationId)
    .where('kind', '=', 'lightning')
    .where('state', 'in', statesBefore('cancelled'))
    .$if(address !== null, (query) => query.where('destination', '<>', address as string))
    .orderBy('created_at')
    .forUpdate()
    .execute();
  return rows.map((row) => ({ id: row.id, paymentHash: row.payment_hash, invoiceExpiresAt: row.invoice_expires_at }));
}
