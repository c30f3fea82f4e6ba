import type { PayoutState } from '@rayo/shared';

/** Where each state may go. `failed → failed` is a further failed attempt; sent and cancelled are final. */
const TRANSITIONS: Record<PayoutState, readonly PayoutState[]> = {
  pending: ['sent', 'failed', 'cancelled'],
  failed: ['sent', 'failed', 'cancelled'],
  sent: [],
  cancelled: [],
};

export function canMove(from: PayoutState, to: PayoutState): boolean {
  return TRANSITIONS[from].includes(to);
}

/** The states a move to `to` may start from: the `where state in (…)` of the guarded update. */
export function statesBefore(to: PayoutState): PayoutState[] {
  return (Object.keys(TRANSITIONS) as PayoutState[]).filter((from) => canMove(from, to));
}

export type RetryPolicy = { baseDelaySeconds: number; maxDelaySeconds: number; attemptsBeforeAlert: number };

/** Wait after the `attempts`-th failed attempt: base · 2^(attempts−1), at most the maximum. */
export function retryDelaySeconds(attempts: number, policy: RetryPolicy): number {
  const exponent = Math.min(Math.max(attempts - 1, 0), 30);
  return Math.min(policy.baseDelaySeconds * 2 ** exponent, policy.maxDelaySeconds);
}

/** Back office hears of a payout once, on the failed attempt that reaches the policy's count. */
export function shouldAlert(attempts: number, policy: RetryPolicy): boolean {
  return attempts === policy.attemptsBeforeAlert;
}

/** What the backend says of a payment it may have been asked to make. */
export type PaymentStatus =
  | { state: 'succeeded'; preimage: string; feeMsat: bigint }
  | { state: 'in_flight' }
  | { state: 'failed' }
  | { state: 'unknown' };

export type NextStep =
  | { step: 'mark_sent'; preimage: string; feeMsat: bigint }
  | { step: 'wait' }
  | { step: 'pay_stored_invoice' }
  | { step: 'fetch_invoice' };

/**
 * What an attempt does with a payout that already holds an invoice, given what the backend says
 * of its payment hash. A payment the backend made is never made again; one it may still be
 * making is waited for. The same invoice is paid again while it can still be paid (the backend
 * refuses a second payment of one hash, so a race pays once); only an invoice expired for longer
 * than any payment of it could take is replaced by a new one from the recipient's service.
 */
export function nextStepFor(
  status: PaymentStatus,
  invoice: { expiresAt: Date; now: Date; settleMarginSeconds: number },
): NextStep {
  if (status.state === 'succeeded') return { step: 'mark_sent', preimage: status.preimage, feeMsat: status.feeMsat };
  if (status.state === 'in_flight') return { step: 'wait' };
  const replaceableAfter = invoice.expiresAt.getTime() + invoice.settleMarginSeconds * 1000;
  return invoice.now.getTime() > replaceableAfter ? { step: 'fetch_invoice' } : { step: 'pay_stored_invoice' };
}
