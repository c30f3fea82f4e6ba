import { checkoutStatuses } from '@rayo/shared';
import { describe, expect, it } from 'vitest';
import en from '../../i18n/en.json';
import es from '../../i18n/es.json';
import { statusLabel } from './payment-link-status.ts';

function lookup(resources: object, key: string): unknown {
  return key
    .split('.')
    .reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], resources);
}

const underpaid = {
  received: { currency: 'GTQ', value: '45.39' },
  missing: { currency: 'GTQ', value: '14.61' },
  receivedSats: 6219,
  missingSats: 2000,
};

describe('payment link status labels', () => {
  it("use SPEC §4's words in English", () => {
    expect(checkoutStatuses.map((status) => lookup(en, statusLabel({ status, underpaid: null }).key))).toEqual([
      'Awaiting payment',
      'Processing payment',
      'Payment completed',
      'Expired',
    ]);
  });

  it('say Underpaid while part of the price arrived and the rest is missing', () => {
    const label = statusLabel({ status: 'awaiting_payment', underpaid });
    expect(lookup(en, label.key)).toBe('Underpaid');
    expect(lookup(es, label.key)).toBe('Pago incompleto');
  });

  it('have a Spanish text for every status', () => {
    for (const status of checkoutStatuses) {
      expect(typeof lookup(es, statusLabel({ status, underpaid: null }).key)).toBe('string');
    }
  });
});
