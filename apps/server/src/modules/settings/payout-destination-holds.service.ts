import type { PayoutDestinationKind, PayoutHold } from '@rayo/shared';
import type { Db } from '../../db/database.ts';
import { payoutDestinationHold } from '../../domain/payout-destination-hold.ts';
import { listDestinationStates } from './payout-destination-changes.repo.ts';

/**
 * Which payout destinations payouts wait on now. Kept apart from recording and cancelling changes
 * (payout-destination-changes.service.ts), which cancels payouts to an old address: payouts read
 * the holds from here without importing that file back.
 */

/** A destination payouts wait on now: the change that holds it, and until when (null: until verified). */
export type HeldDestination = PayoutHold & { organizationId: string };

async function listHolds(
  db: Db,
  organizationIds: readonly string[],
  kinds: readonly PayoutDestinationKind[],
  now: Date,
): Promise<HeldDestination[]> {
  const held: HeldDestination[] = [];
  for (const state of await listDestinationStates(db, organizationIds, kinds)) {
    const hold = payoutDestinationHold({
      verified: state.verified,
      change: { changedAt: state.changed_at, releaseAt: state.release_at },
      now,
    });
    if (!hold.held) continue;
    held.push({
      organizationId: state.organization_id,
      changeId: state.change_id,
      kind: state.kind,
      changedAt: hold.changedAt.toISOString(),
      releaseAt: hold.releaseAt?.toISOString() ?? null,
    });
  }
  return held;
}

/**
 * The rule every payout follows (domain/payout-destination-hold.ts), for many organizations at
 * once: those among `organizationIds` whose `kind` destination is held now, with why. Any other
 * organization may be paid. The Lightning payout job, the on-chain batch and back office's bank
 * transfers call this, inside the transaction that then pays, so a change committed meanwhile counts.
 */
export async function findPayoutDestinationHolds(
  db: Db,
  kind: PayoutDestinationKind,
  organizationIds: readonly string[],
  now = new Date(),
): Promise<Map<string, HeldDestination>> {
  const held = await listHolds(db, organizationIds, [kind], now);
  return new Map(held.map((hold) => [hold.organizationId, hold]));
}

/** Every destination of the organization that payouts wait on, for its payouts screen. */
export async function listOrganizationPayoutHolds(
  db: Db,
  organizationId: string,
  now = new Date(),
): Promise<PayoutHold[]> {
  return (await listHolds(db, [organizationId], ['lightning', 'onchain', 'bank'], now)).map(
    ({ organizationId: _organization, ...hold }) => hold,
  );
}
