import { describe, expect, it } from 'vitest';
import { planSplit, type Share, splitChangesNothing } from './payout-split.ts';

const share = (id: string, amountMsat: bigint): Share => ({ transactionId: id, amountMsat });
const sum = (shares: Share[]) => shares.reduce((s, x) => s + x.amountMsat, 0n);

describe('planSplit', () => {
  it('packs whole shares into payouts at most maxSendable, each share exactly once', () => {
    const shares = [share('a', 600n), share('b', 500n), share('c', 400n), share('d', 300n), share('e', 200n)];
    const plan = planSplit(shares, { minMsat: 1n, maxMsat: 1000n });
    expect(plan.leftover).toEqual([]);
    for (const group of plan.groups) expect(sum(group)).toBeLessThanOrEqual(1000n);
    const ids = plan.groups.flat().map((s) => s.transactionId);
    expect(ids.sort()).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(sum(plan.groups.flat())).toBe(2000n);
    expect(plan.groups).toHaveLength(2);
  });

  it('gives back what together stays below minSendable, and keeps a share above maxSendable alone', () => {
    const plan = planSplit([share('big', 5000n), share('a', 900n), share('tiny', 50n)], {
      minMsat: 100n,
      maxMsat: 1000n,
    });
    expect(plan.groups).toEqual([[share('big', 5000n)], [share('a', 900n), share('tiny', 50n)]]);
    expect(plan.leftover).toEqual([]);
    const small = planSplit([share('a', 1000n), share('b', 30n)], { minMsat: 100n, maxMsat: 1000n });
    expect(small).toEqual({ groups: [[share('a', 1000n)]], leftover: [share('b', 30n)] });
  });

  it('says when there is nothing to split', () => {
    const one = [share('big', 5000n)];
    expect(splitChangesNothing(planSplit(one, { minMsat: 1n, maxMsat: 1000n }), one)).toBe(true);
    const two = [share('a', 600n), share('b', 600n)];
    expect(splitChangesNothing(planSplit(two, { minMsat: 1n, maxMsat: 1000n }), two)).toBe(false);
  });
});
