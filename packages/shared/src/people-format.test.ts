import { describe, expect, it } from 'vitest';
import { formatMoney, moneyFormat, numberFormat } from './people-format.ts';

describe('number formats', () => {
  it('builds each format once per locale and options, and formats with it as before', () => {
    expect(moneyFormat('GTQ', 'es-GT', 2)).toBe(moneyFormat('GTQ', 'es-GT', 2));
    expect(moneyFormat('GTQ', 'es-GT', 3)).not.toBe(moneyFormat('GTQ', 'es-GT', 2));
    expect(moneyFormat('MXN', 'es-GT', 2)).not.toBe(moneyFormat('GTQ', 'es-GT', 2));
    expect(numberFormat('en')).toBe(numberFormat('en'));
    expect(numberFormat('en')).not.toBe(numberFormat('es-419'));
    expect(formatMoney(1250n, 'GTQ', 'en')).toMatch(/^GTQ\s12\.50$/);
    expect(formatMoney(4161538n, 'MXN', 'es-419')).toMatch(/^MXN\s41,615\.38$/);
  });
});
