/**
 * When a payout may go to a destination (Lightning address, on-chain address, bank account) that
 * was set or changed: the one rule the Lightning payout job, the on-chain batch and back office's
 * bank transfers all follow (docs/security.md "Payout destinations"). A stolen session, or any of
 * the ways into an account, must not be enough to send the organization's money somewhere new
 * at once.
 */

/** The newest change of the destination that was not cancelled. */
export type DestinationChange = {
  changedAt: Date;
  /**
   * When its cool-down ends: the cool-down after every admin was mailed about it. Null while
   * they were not (the mail failed), so that only back office's verification releases it.
   */
  releaseAt: Date | null;
};

export type DestinationHold = { held: false } | { held: true; changedAt: Date; releaseAt: Date | null };

/**
 * A destination back office verified is paid; so is one without a change on record (set before
 * changes were recorded). A changed one waits until its cool-down has ended.
 */
export function payoutDestinationHold(input: {
  verified: boolean;
  change: DestinationChange | null;
  now: Date;
}): DestinationHold {
  const { verified, change, now } = input;
  if (verified || change === null) return { held: false };
  if (change.releaseAt !== null && change.releaseAt.getTime() <= now.getTime()) return { held: false };
  return { held: true, changedAt: change.changedAt, releaseAt: change.releaseAt };
}

/** The end of the cool-down of a change whose admins were all mailed at `mailedAt`. */
export function coolDownEnd(mailedAt: Date, coolDownHours: number): Date {
  return new Date(mailedAt.getTime() + coolDownHours * 3_600_000);
}
