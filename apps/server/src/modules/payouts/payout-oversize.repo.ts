import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { Share } from '../../domain/payout-split.ts';
import { statesBefore } from '../../domain/payout-state.ts';

/**
 * In the caller's transaction `trx`: the payout (still open and still holding the invoice the caller
 * saw, `paymentHash`) is cancelled, and its shares are carried instead by new pending payouts to
 * the same address, one per group `plan` makes of them; shares in no group go back to the pool.
 * `plan` returns null to leave the payout as it is. The new payouts' ids, or [] when nothing changed.
 */
export async function replacePayoutByParts(
  trx: Db,
  input: { payoutId: string; paymentHash: string | null; plan: (shares: Share[]) => Share[][] | null },
): Promise<string[]> {
  const payout = await trx
    .selectFrom('payouts')
    .select(['id', 'organization_id', 'kind', 'destination'])
    .where('id', '=', input.payoutId)
    .where('state', 'in', statesBefore('cancelled'))
    .where(sql<boolean>`payment_hash is not distinct from ${input.paymentHash}`)
    .forUpdate()
    .executeTakeFirst();
  if (!payout) return [];
  const rows = await trx
    .selectFrom('payout_transactions')
    .select(['transaction_id', 'amount_msat'])
    .where('payout_id', '=', payout.id)
    .execute();
  const groups = input.plan(
    rows.map((row) => ({ transactionId: row.transaction_id, amountMsat: BigInt(row.amount_msat) })),
  );
  if (groups === null) return [];
  await trx
    .updateTable('payouts')
    .set({
      state: 'cancelled',
      last_error: `Above the address's maximum: split into ${groups.length} payouts`,
      updated_at: sql`now()`,
    })
    .where('id', '=', payout.id)
    .execute();
  await trx.deleteFrom('payout_transactions').where('payout_id', '=', payout.id).execute();
  const ids: string[] = [];
  for (const group of groups) {
    const part = await trx
      .insertInto('payouts')
      .values({
        organization_id: payout.organization_id,
        kind: payout.kind,
        destination: payout.destination,
        amount_msat: group.reduce((sum, share) => sum + share.amountMsat, 0n),
        fee_msat: 0n,
        idempotency_key: `${payout.kind}:${randomUUID()}`,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await trx
      .insertInto('payout_transactions')
      .values(
        group.map((share) => ({
          transaction_id: share.transactionId,
          kind: payout.kind,
          payout_id: part.id,
          amount_msat: share.amountMsat,
        })),
      )
      .execute();
    ids.push(part.id);
  }
  return ids;
}
