import { describe, expect, it } from 'vitest';
import { auditPeriod } from './audit-period.ts';

describe('auditPeriod', () => {
  it('covers both picked days, in UTC', () => {
    expect(auditPeriod('2026-01-01', '2026-01-31')).toEqual({
      start: Date.UTC(2026, 0, 1) / 1000,
      end: Date.UTC(2026, 1, 1) / 1000,
    });
    expect(auditPeriod('2026-03-05', '2026-03-05')).toEqual({
      start: Date.UTC(2026, 2, 5) / 1000,
      end: Date.UTC(2026, 2, 6) / 1000,
    });
  });

  it('refuses a reversed period, one longer than the server takes, and nonsense', () => {
    expect(auditPeriod('2026-02-01', '2026-01-31')).toBeNull();
    expect(auditPeriod('2024-01-01', '2024-12-31')).not.toBeNull();
    expect(auditPeriod('2024-01-01', '2025-01-01')).toBeNull();
    expect(auditPeriod('yesterday', '2026-01-01')).toBeNull();
  });
});
