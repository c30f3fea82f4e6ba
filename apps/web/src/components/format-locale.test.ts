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

  it("keeps English as it is, and Latin America's Spanish without a country", () => {
    expect(formatLocale('en', 'GT')).toBe('en');
    expect(number(formatLocale('en', 'ES'))).toBe('2,321.94');
    expect(formatLocale('es', null)).toBe('es-419');
    expect(formatLocale('es', '')).toBe('es-419');
    expect(formatLocale('es', 'not a code')).toBe('es-419');
    expect(number(formatLocale('es', null))).toBe('2,321.94');
  });

  it('formats money with it, naming every currency by its code', () => {
    expect(formatMoney(232194n, 'GTQ', formatLocale('es', 'GT'))).toBe('GTQ\u00a02,321.94');
    expect(formatMoney(232194n, 'EUR', formatLocale('es', 'ES'))).toBe('2321,94\u00a0EUR');
  });

  it('writes amounts of different currencies in one style, in both languages', () => {
    // One column of back office lists a Guatemalan and a Mexican organization: CLDR's symbols
    // would write "GTQ 9,114.24" beside "MX$41,615.38".
    for (const language of ['en', 'es'] as const) {
      const locale = formatLocale(language, null);
      expect(formatMoney(911424n, 'GTQ', locale)).toBe('GTQ\u00a09,114.24');
      expect(formatMoney(4161538n, 'MXN', locale)).toBe('MXN\u00a041,615.38');
      expect(formatMoney(30n, 'USD', locale)).toBe('USD\u00a00.30');
    }
  });
});
