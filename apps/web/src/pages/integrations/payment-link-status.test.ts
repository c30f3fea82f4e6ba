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

describe('payment link status labels', () => {
  it("use SPEC §4's words in English", () => {
    expect(checkoutStatuses.map((status) => lookup(en, statusLabel(status).key))).toEqual([
      'Awaiting payment',
      'Processing payment',
      'Payment completed',
      'Expired',
    ]);
  });

  it('have a Spanish text for every status', () => {
    for (const status of checkoutStatuses) expect(typeof lookup(es, statusLabel(status).key)).toBe('string');
  });
});
