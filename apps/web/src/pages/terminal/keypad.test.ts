import { describe, expect, it } from 'vitest';
import {
  formatTyped,
  type KeypadKey,
  pressKey,
  pressKeyWithinLimit,
  type SaleTerms,
  tipProblem,
  typedToMinor,
} from './keypad.ts';

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

describe('keypad entries', () => {
  it('reads what was typed so far in minor units', () => {
    expect(typedToMinor('12.5', 'USD')).toBe(1250n);
    expect(typedToMinor('12.', 'USD')).toBe(1200n);
    expect(typedToMinor('', 'USD')).toBe(0n);
    expect(typedToMinor('0.07', 'USD')).toBe(7n);
    expect(typedToMinor('1500', 'SAT')).toBe(1500n);
    expect(() => typedToMinor('1,5', 'USD')).toThrow();
  });

  it('shows what the keypad typed, point and all', () => {
    expect(formatTyped('', 'USD', 'en')).toBe('USD\u00a00');
    expect(formatTyped('12', 'USD', 'en')).toBe('USD\u00a012');
    expect(formatTyped('12.', 'USD', 'en')).toBe('USD\u00a012.');
    expect(formatTyped('1234.5', 'USD', 'en')).toBe('USD\u00a01,234.5');
    expect(formatTyped('12.', 'EUR', 'es')).toBe('12,\u00a0EUR');
    expect(formatTyped('1500', 'SAT', 'en')).toBe('1,500 sats');
  });
});

// Q730,000 per bitcoin and a 12 % tax: 1 BTC is Q730,000.00, so the bill stops below Q651,786.
const GTQ: SaleTerms = { currency: 'GTQ', taxBps: 1200, rateMinorPerBtc: 73_000_000n };

describe('pressKeyWithinLimit', () => {
  it('refuses the key that would take the sale past 1 BTC, keeping the amount', () => {
    expect(pressKeyWithinLimit('65178', '5', null, GTQ)).toEqual({ value: '651785', refused: false });
    expect(pressKeyWithinLimit('651785', '9', null, GTQ)).toEqual({ value: '651785', refused: true });
    expect(pressKeyWithinLimit('651785', '00', null, GTQ)).toEqual({ value: '651785', refused: true });
    // Fifteen nines never get typed: the sixth nine is refused already.
    const typed = Array.from({ length: 15 }).reduce<string>(
      (value) => pressKeyWithinLimit(value, '9', null, GTQ).value,
      '',
    );
    expect(typed).toBe('99999');
  });

  it('counts the tip, and never refuses making the amount smaller', () => {
    const tip = { kind: 'percent', percent: 20 } as const;
    expect(pressKeyWithinLimit('60000', '0', tip, GTQ).refused).toBe(true);
    expect(pressKeyWithinLimit('600000', 'backspace', tip, GTQ)).toEqual({ value: '60000', refused: false });
    expect(pressKeyWithinLimit('600000', 'clear', tip, GTQ)).toEqual({ value: '', refused: false });
  });
});

describe('tipProblem', () => {
  it('says why a typed tip cannot be charged', () => {
    const amount = (text: string) => ({ kind: 'amount', amount: text }) as const;
    expect(tipProblem(amount('5'), 5000n, 'GTQ')).toBeNull();
    expect(tipProblem(amount('50.00'), 5000n, 'GTQ')).toBeNull();
    expect(tipProblem(amount(''), 5000n, 'GTQ')).toBeNull();
    expect(tipProblem(amount('-5'), 5000n, 'GTQ')).toBe('negative');
    expect(tipProblem(amount('abc'), 5000n, 'GTQ')).toBe('notAmount');
    expect(tipProblem(amount('1.234'), 5000n, 'GTQ')).toBe('notAmount');
    expect(tipProblem(amount('999999'), 5000n, 'GTQ')).toBe('tooLarge');
    expect(tipProblem({ kind: 'percent', percent: 20 }, 5000n, 'GTQ')).toBeNull();
  });
});
