import { describe, expect, it } from 'vitest';
import { initI18n } from '../../i18n/index.ts';

describe("the country report's mark-paid confirmation", () => {
  it.each([
    ['en', 1, '905 transactions of 1 organization will be marked as paid. This cannot be undone.'],
    ['en', 3, '905 transactions of 3 organizations will be marked as paid. This cannot be undone.'],
    ['es', 1, '905 transacciones de 1 organización se marcarán como pagadas. No se puede deshacer.'],
  ] as const)('in %s names %i organization(s) in the right number', async (language, organizations, expected) => {
    const i18n = initI18n();
    await i18n.changeLanguage(language);
    const t = i18n.t;
    const text = t('backOffice.reports.confirmMessage', {
      count: 905,
      organizations: t('backOffice.reports.organizationCount', {
        count: organizations,
        formatted: String(organizations),
      }),
    });
    expect(text).toBe(expected);
  });
});
