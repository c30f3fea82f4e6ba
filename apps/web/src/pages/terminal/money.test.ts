import { describe, expect, it } from 'vitest';
import { formatMoney, formatSats } from '../../components/money-format.ts';
import { formatTyped, msatToSats, saleFigures, satsFor, sumDecimals, typedToMinor } from './money.ts';

describe('keypad entries', () => {
  it('reads what was typed so far in minor units', () => {
    expect(typedToMinor('12.5', 'USD')).toBe(1250n);
    expect(typedToMinor('12.', 'USD')).toBe(1200n);
    expect(typedToMinor('', 'USD')).toBe(0n);
    expect(typedToMinor('0.07', 'USD')).toBe(7n);
    expect(typedToMinor('999999999999999.99', 'USD')).toBe(99999999999999999n);
    expect(typedToMinor('1500', 'SAT')).toBe(1500n);
    expect(() => typedToMinor('1,5', 'USD')).toThrow();
  });
});

describe('saleFigures', () => {
  it('adds a percentage tip and the tax of the bill', () => {
    const figures = saleFigures({
      bill: '100.00',
      tip: { kind: 'percent', percent: 15 },
      taxPercentage: 12,
      currency: 'GTQ',
      rate: '1250.5',
    });
    expect(figures).toEqual({ bill: 10000n, tip: 1500n, tax: 1200n, total: 12700n, sats: 158814n });
  });

  it('rounds tip and tax half up to the minor unit', () => {
    // 0.05 × 10 % = 0.005 → 0.01; 0.05 × 7.25 % = 0.003625 → 0.00
    const figures = saleFigures({
      bill: '0.05',
      tip: { kind: 'percent', percent: 10 },
      taxPercentage: 7.25,
      currency: 'USD',
      rate: '1000',
    });
    expect(figures).toMatchObject({ bill: 5n, tip: 1n, tax: 0n, total: 6n, sats: 60n });
    // 0.15 × 10 % = 0.015 → 0.02
    expect(saleFigures({ ...inputUsd, bill: '0.15', tip: { kind: 'percent', percent: 10 } }).tip).toBe(2n);
  });

  it('takes a typed tip amount as it is, and no tip when tips are off', () => {
    expect(saleFigures({ ...inputUsd, bill: '20', tip: { kind: 'amount', amount: '3.5' } })).toMatchObject({
      tip: 350n,
      total: 2350n,
    });
    expect(saleFigures({ ...inputUsd, bill: '20', tip: null }).tip).toBe(0n);
    expect(saleFigures({ ...inputUsd, bill: '20', tip: { kind: 'amount', amount: '' } }).tip).toBe(0n);
  });

  it('works in zero-decimal currencies and in sats', () => {
    expect(
      saleFigures({
        bill: '1000',
        tip: { kind: 'percent', percent: 15 },
        taxPercentage: 10,
        currency: 'JPY',
        rate: '6.5',
      }),
    ).toEqual({ bill: 1000n, tip: 150n, tax: 100n, total: 1250n, sats: 8125n });
    expect(
      saleFigures({
        bill: '2101',
        tip: { kind: 'percent', percent: 10 },
        taxPercentage: 0,
        currency: 'SAT',
        rate: '1',
      }),
    ).toEqual({ bill: 2101n, tip: 210n, tax: 0n, total: 2311n, sats: 2311n });
  });

  it('keeps every figure exact where floats would drift', () => {
    // 0.1 + 0.2 in floats is 0.30000000000000004.
    const figures = saleFigures({ ...inputUsd, bill: '0.10', tip: { kind: 'amount', amount: '0.20' } });
    expect(figures.total).toBe(30n);
    const large = saleFigures({ ...inputUsd, bill: '999999999999999.99', taxPercentage: 0 });
    expect(large.total).toBe(99999999999999999n);
    expect(large.sats).toBe(999999999999999990n);
  });
});

const inputUsd = { bill: '0', tip: null, taxPercentage: 0, currency: 'USD', rate: '1000' };

describe('satsFor', () => {
  it('prices minor units at a decimal rate, rounded half up', () => {
    expect(satsFor(12700n, 2, '1250.5')).toBe(158814n); // 127 × 1250.5 = 158813.5
    expect(satsFor(1n, 2, '1538.461538')).toBe(15n); // 15.38…
    expect(satsFor(100n, 2, '0.5')).toBe(1n); // 0.5 → 1
    expect(satsFor(0n, 2, '1500')).toBe(0n);
  });

  it('turns msat into sats', () => {
    expect(msatToSats(1_234_500)).toBe(1235n);
    expect(msatToSats(999)).toBe(1n);
  });

  it('sums decimal strings exactly', () => {
    expect(sumDecimals(['100.00', '15.00', '12.00'], 'USD')).toBe(12700n);
  });
});

describe('formatting', () => {
  it('shows amounts with the currency decimals', () => {
    expect(formatMoney(1250n, 'USD', 'en')).toBe('$12.50');
    expect(formatMoney(1250n, 'JPY', 'en')).toBe('¥1,250');
    expect(formatMoney(123456n, 'EUR', 'es')).toBe('1234,56\u00a0€');
    expect(formatMoney(2101n, 'SAT', 'en')).toBe('2,101 sats');
    expect(formatSats(158814n, 'en')).toBe('158,814 sats');
  });

  it('shows what the keypad typed, point and all', () => {
    expect(formatTyped('', 'USD', 'en')).toBe('$0');
    expect(formatTyped('12', 'USD', 'en')).toBe('$12');
    expect(formatTyped('12.', 'USD', 'en')).toBe('$12.');
    expect(formatTyped('1234.5', 'USD', 'en')).toBe('$1,234.5');
    expect(formatTyped('12.', 'EUR', 'es')).toBe('12,\u00a0€');
    expect(formatTyped('1500', 'SAT', 'en')).toBe('1,500 sats');
  });
});
