import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { coolDownEnd, payoutDestinationHold } from './payout-destination-hold.ts';

const changedAt = new Date('2026-11-27T10:00:00Z');
const mailedAt = new Date('2026-11-27T10:00:02Z');
const releaseAt = coolDownEnd(mailedAt, 48);

describe('payoutDestinationHold', () => {
  it('holds a changed destination until its cool-down ends, then pays it', () => {
    const change = { changedAt, releaseAt };
    expect(releaseAt.toISOString()).toBe('2026-11-29T10:00:02.000Z');
    expect(payoutDestinationHold({ verified: false, change, now: changedAt })).toEqual({
      held: true,
      changedAt,
      releaseAt,
    });
    expect(payoutDestinationHold({ verified: false, change, now: new Date(releaseAt.getTime() - 1) }).held).toBe(true);
    expect(payoutDestinationHold({ verified: false, change, now: releaseAt })).toEqual({ held: false });
  });

  it('pays a destination back office verified at once, and one set before changes were recorded', () => {
    expect(payoutDestinationHold({ verified: true, change: { changedAt, releaseAt }, now: changedAt })).toEqual({
      held: false,
    });
    expect(payoutDestinationHold({ verified: false, change: null, now: changedAt })).toEqual({ held: false });
  });

  it('holds a change whose admins were not mailed until back office verifies it, however long', () => {
    fc.assert(
      fc.property(fc.date({ min: changedAt, noInvalidDate: true }), (now) => {
        const hold = payoutDestinationHold({ verified: false, change: { changedAt, releaseAt: null }, now });
        expect(hold).toEqual({ held: true, changedAt, releaseAt: null });
      }),
    );
  });

  it('never pays an unverified change before its release time', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1000 }), fc.integer({ min: 0, max: 10 ** 10 }), (hours, offset) => {
        const release = coolDownEnd(mailedAt, hours);
        const now = new Date(changedAt.getTime() + offset);
        const hold = payoutDestinationHold({ verified: false, change: { changedAt, releaseAt: release }, now });
        expect(hold.held).toBe(now < release);
      }),
    );
  });
});
