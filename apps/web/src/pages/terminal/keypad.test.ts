import { describe, expect, it } from 'vitest';
import { isTypedAmount, type KeypadKey, pressKey } from './keypad.ts';

function type(keys: KeypadKey[], exponent: number, start = ''): string {
  return keys.reduce((value, key) => pressKey(value, key, exponent), start);
}

describe('pressKey', () => {
  it('types digits and a point with up to the currency decimals', () => {
    expect(type(['1', '2', '.', '5'], 2)).toBe('12.5');
    expect(type(['1', '2', '.', '5', '0', '7'], 2)).toBe('12.50');
    expect(type(['.', '5'], 2)).toBe('0.5');
    expect(type(['1', '.', '.', '2'], 2)).toBe('1.2');
  });

  it('has no point and no decimals in zero-decimal currencies', () => {
    expect(type(['1', '.', '5'], 0)).toBe('15');
    expect(type(['2', '00'], 0)).toBe('200');
  });

  it('allows three decimals where the currency has them', () => {
    expect(type(['1', '.', '2', '3', '4', '5'], 3)).toBe('1.234');
  });

  it('does not type leading zeros', () => {
    expect(type(['0', '0', '7'], 2)).toBe('7');
    expect(type(['00'], 2)).toBe('0');
    expect(type(['00', '00', '.', '0', '5'], 2)).toBe('0.05');
  });

  it('types 00 as two zeros, within the decimals left', () => {
    expect(type(['5', '00'], 2)).toBe('500');
    expect(type(['5', '.', '00'], 2)).toBe('5.00');
    expect(type(['5', '.', '1', '00'], 2)).toBe('5.10');
  });

  it('stops at 15 whole digits', () => {
    const fifteen = '123456789012345';
    expect(pressKey(fifteen, '6', 2)).toBe(fifteen);
    expect(pressKey(fifteen, '.', 2)).toBe(`${fifteen}.`);
    expect(pressKey('12345678901234', '00', 2)).toBe(`${fifteen.slice(0, 14)}0`);
  });

  it('removes the last character with backspace and everything with clear', () => {
    expect(type(['backspace'], 2, '12.5')).toBe('12.');
    expect(type(['backspace', 'backspace'], 2, '12.5')).toBe('12');
    expect(type(['backspace'], 2, '')).toBe('');
    expect(type(['clear'], 2, '12.5')).toBe('');
  });
});

describe('isTypedAmount', () => {
  it('accepts what the keypad could type for the currency', () => {
    for (const value of ['', '0', '12', '12.', '12.5', '12.50']) expect(isTypedAmount(value, 2)).toBe(true);
    for (const value of ['12.505', '1,5', '-1', 'abc', '1.2.3']) expect(isTypedAmount(value, 2)).toBe(false);
    expect(isTypedAmount('12.5', 0)).toBe(false);
    expect(isTypedAmount('1234567890123456', 2)).toBe(false);
  });
});
