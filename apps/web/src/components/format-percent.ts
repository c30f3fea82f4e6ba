import { numberFormat } from '@rayo/shared';

/** A percentage as people read it in `locale`: 7.25 is "7.25%" in English and "7,25 %" in Spanish. */
export function formatPercent(percent: number, locale: string): string {
  return numberFormat(locale, { style: 'unit', unit: 'percent', maximumFractionDigits: 2 }).format(percent);
}
