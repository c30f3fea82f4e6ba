import type { CountryReportRow, UnpaidTransaction } from '@rayo/shared';
import { describe, expect, it } from 'vitest';
import { idsOfCheckedRows, selectedSum } from './payment-selection.ts';

function sale(currency: string, fiatIncomeMinor: string): UnpaidTransaction {
  return { currency, fiatIncomeMinor } as UnpaidTransaction;
}

function row(organizationId: string, ids: string[]): CountryReportRow {
  return { organizationId, transactions: ids.map((id) => ({ id })) } as CountryReportRow;
}

describe('selectedSum', () => {
  it('adds minor units exactly, per currency', () => {
    // 0.10 + 0.20 as floats is 0.30000000000000004; as minor units it is 30.
    expect(selectedSum([sale('USD', '10'), sale('USD', '20'), sale('GTQ', '12050')], 'en')).toBe(
      'GTQ\u00a0120.50 + USD\u00a00.30',
    );
  });

  it('is nothing with nothing selected, not a bare zero', () => {
    expect(selectedSum([], 'en')).toBe('');
  });
});

describe('idsOfCheckedRows', () => {
  it('sends every transaction of the checked rows and none of the others', () => {
    const rows = [row('a', ['1', '2']), row('b', ['3']), row('c', ['4', '5'])];
    expect(idsOfCheckedRows(rows, new Set(['a', 'c']))).toEqual(['1', '2', '4', '5']);
    expect(idsOfCheckedRows(rows, new Set())).toEqual([]);
  });
});
