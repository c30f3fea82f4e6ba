import { describe, expect, it } from 'vitest';
import { organizationExportFile } from './back-office-payments.ts';

describe('organizationExportFile', () => {
  it("names the export after the organization and its day, as the merchant's whole-history CSV", () => {
    // 21:30 on the 27th in Guatemala is already the 28th in UTC: the day is the organization's.
    const now = new Date('2026-11-28T03:30:00Z');
    expect(organizationExportFile({ name: 'Café Central', timeZone: 'America/Guatemala' }, now)).toBe(
      'transactions_cafe-central_all_2026-11-27.csv',
    );
    expect(organizationExportFile({ name: '  Tienda  #2 / Zona 10 ', timeZone: 'UTC' }, now)).toBe(
      'transactions_tienda-2-zona-10_all_2026-11-28.csv',
    );
    expect(organizationExportFile({ name: '***', timeZone: 'UTC' }, now)).toBe(
      'transactions_organization_all_2026-11-28.csv',
    );
  });
});
