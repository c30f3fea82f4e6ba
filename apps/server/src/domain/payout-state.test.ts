import { PAYOUT_STATES } from '@rayo/shared';
import { describe, expect, it } from 'vitest';
import { canMove, nextStepFor, retryDelaySeconds, shouldAlert, statesBefore } from './payout-state.ts';

const POLICY = { baseDelaySeconds: 60, maxDelaySeconds: 3600, attemptsBeforeAlert: 5 };

describe('payout state machine', () => {
  it('moves pending to sent, failed or cancelled, failed again to any of those, and never out of sent or cancelled', () => {
    const allowed = PAYOUT_STATES.flatMap((from) =>
      PAYOUT_STATES.filter((to) => canMove(from, to)).map((to) => `${from}→${to}`),
    );
    expect(allowed).toEqual([
      'pending→sent',
      'pending→failed',
      'pending→cancelled',
      'failed→sent',
      'failed→failed',
      'failed→cancelled',
    ]);
  });

  it('guards each move by the states it may leave', () => {
    expect(statesBefore('sent')).toEqual(['pending', 'failed']);
    expect(statesBefore('cancelled')).toEqual(['pending', 'failed']);
    expect(statesBefore('pending')).toEqual([]);
  });

  it('backs off exponentially up to the maximum and alerts once', () => {
    expect([1, 2, 3, 4, 7, 40].map((n) => retryDelaySeconds(n, POLICY))).toEqual([60, 120, 240, 480, 3600, 3600]);
    expect([4, 5, 6].map((n) => shouldAlert(n, POLICY))).toEqual([false, true, false]);
  });
});

describe('the next step of a payout that holds an invoice', () => {
  const now = new Date('2026-01-01T12:00:00Z');
  const live = { expiresAt: new Date('2026-01-01T12:10:00Z'), now, settleMarginSeconds: 120 };
  const expired = { expiresAt: new Date('2026-01-01T11:00:00Z'), now, settleMarginSeconds: 120 };
  const justExpired = { expiresAt: new Date('2026-01-01T11:59:00Z'), now, settleMarginSeconds: 120 };

  it('never pays again what the backend paid, whatever the invoice', () => {
    for (const invoice of [live, expired]) {
      expect(nextStepFor({ state: 'succeeded', preimage: 'ab', feeMsat: 3n }, invoice)).toEqual({
        step: 'mark_sent',
        preimage: 'ab',
        feeMsat: 3n,
      });
    }
  });

  it('waits for a payment in flight, even of an expired invoice', () => {
    expect(nextStepFor({ state: 'in_flight' }, live)).toEqual({ step: 'wait' });
    expect(nextStepFor({ state: 'in_flight' }, expired)).toEqual({ step: 'wait' });
  });

  it('pays the same invoice after a failure or no record, and asks for a new one only well after expiry', () => {
    for (const state of ['failed', 'unknown'] as const) {
      expect(nextStepFor({ state }, live)).toEqual({ step: 'pay_stored_invoice' });
      expect(nextStepFor({ state }, justExpired)).toEqual({ step: 'pay_stored_invoice' });
      expect(nextStepFor({ state }, expired)).toEqual({ step: 'fetch_invoice' });
    }
  });
});
