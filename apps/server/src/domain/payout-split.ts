/** A sale's share carried by a payout: whole, never divided between payouts. */
export type Share = { transactionId: string; amountMsat: bigint };

export type SplitPlan = {
  /** The new payouts, each a set of whole shares; at most `maxMsat` unless one share alone exceeds it. */
  groups: Share[][];
  /** Shares given back to the unpaid pool: together they make less than `minMsat`, so no payout can carry them yet. */
  leftover: Share[];
};

function total(shares: readonly Share[]): bigint {
  return shares.reduce((sum, share) => sum + share.amountMsat, 0n);
}

/**
 * Packs a payout's shares into payouts the recipient's service accepts (LUD-06 `minSendable` ≤
 * amount ≤ `maxSendable`). Shares stay whole, so every msat of each sale is in exactly one new
 * payout or back in the pool, and the primary key of payout_transactions still holds one share in
 * one payout. First fit, largest first: few payouts, and the small shares fill the gaps. A share
 * larger than `maxMsat` cannot be carried whole by any payout the service accepts: it gets a
 * payout of its own, which fails and tells back office, as the whole batch did before.
 */
export function planSplit(shares: readonly Share[], range: { minMsat: bigint; maxMsat: bigint }): SplitPlan {
  const sorted = [...shares].sort((a, b) =>
    a.amountMsat === b.amountMsat
      ? a.transactionId.localeCompare(b.transactionId)
      : a.amountMsat > b.amountMsat
        ? -1
        : 1,
  );
  const groups: { shares: Share[]; sum: bigint }[] = [];
  for (const share of sorted) {
    const room = groups.find((group) => group.sum + share.amountMsat <= range.maxMsat);
    if (room) {
      room.shares.push(share);
      room.sum += share.amountMsat;
    } else {
      groups.push({ shares: [share], sum: share.amountMsat });
    }
  }
  const payable = groups.filter((group) => group.sum >= range.minMsat);
  const leftover = groups.filter((group) => group.sum < range.minMsat).flatMap((group) => group.shares);
  return { groups: payable.map((group) => group.shares), leftover };
}

/** True when the plan changes nothing: the payout as it is, one group of all its shares. */
export function splitChangesNothing(plan: SplitPlan, shares: readonly Share[]): boolean {
  return plan.leftover.length === 0 && plan.groups.length === 1 && total(plan.groups[0] ?? []) === total(shares);
}
