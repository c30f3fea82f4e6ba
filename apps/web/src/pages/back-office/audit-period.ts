import { AUDIT_EXPORT_MAX_SECONDS } from '@rayo/shared';

const DAY_SECONDS = 24 * 60 * 60;

/**
 * The export period of two picked days (`YYYY-MM-DD`, both included) in unix seconds, read as
 * UTC days since the file's times are UTC; null when it is not one the server takes.
 */
export function auditPeriod(from: string, to: string): { start: number; end: number } | null {
  const start = Date.parse(`${from}T00:00:00Z`) / 1000;
  const end = Date.parse(`${to}T00:00:00Z`) / 1000 + DAY_SECONDS;
  if (!Number.isFinite(start) || !Number.isFinite(end) || end <= start) return null;
  if (end - start > AUDIT_EXPORT_MAX_SECONDS) return null;
  return { start, end };
}
