import { describe, expect, it } from 'vitest';
import { formatLocale } from './format-locale.ts';
import { formatMoney } from './money-format.ts';

const number = (locale: string) => new Intl.NumberFormat(locale).format(2321.94);

describe('formatLocale', () => {
  it("writes Spanish as the organization's country does, not as Spain does by default", () => {
    expect(formatLocale('es', 'GT')).toBe('es-GT');
    expect(number(formatLocale('es', 'GT'))).toBe('2,321.94');
    expect(number(formatLocale('es', 'MX'))).toBe('2,321.94');
    // Spain does not group four-digit numbers.
    expect(number(formatLocale('es', 'ES'))).toBe('2321,94');
    expect(new Intl.NumberFormat(formatLocale('es', 'ES')).format(12321.94)).toBe('12.321,94');
  });

  it('keeps English as it is, and the language alone without a country', () => {
    expect(formatLocale('en', 'GT')).toBe('en');
    expect(number(formatLocale('en', 'ES'))).toBe('2,321.94');
    expect(formatLocale('es', null)).toBe('es');
    expect(formatLocale('es', '')).toBe('es');
    expect(formatLocale('es', 'not a code')).toBe('es');
  });

  it('formats money with it', () => {
    // Intl puts a no-break space between figure and symbol where it puts one.
    expect(formatMoney(232194n, 'GTQ', formatLocale('es', 'GT'))).toMatch(/^Q\s?2,321\.94$/);
    expect(formatMoney(232194n, 'EUR', formatLocale('es', 'ES'))).toMatch(/^2321,94\s€$/);
  });
});
