import type { SplitPercents } from '@rayo/shared';

/** The three inputs as Mantine's NumberInput gives them: a number, or '' while empty. */
export type SplitForm = Record<keyof SplitPercents, number | string>;

export const SPLIT_FIELDS = ['fiatPercent', 'onchainPercent', 'lightningPercent'] as const;

export type SplitFormCheck =
  | { split: SplitPercents; error?: undefined }
  | { split?: undefined; error: { key: string; values?: Record<string, number> } };

function wholePercent(value: number | string): number | null {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= 100 ? value : null;
}

/** The split the form holds, or the i18n key of what is wrong with it (inline, before any call). */
export function checkSplitForm(form: SplitForm): SplitFormCheck {
  const [fiatPercent, onchainPercent, lightningPercent] = SPLIT_FIELDS.map((field) => wholePercent(form[field]));
  if (fiatPercent == null || onchainPercent == null || lightningPercent == null) {
    return { error: { key: 'payoutSplit.errors.wholePercent' } };
  }
  const sum = fiatPercent + onchainPercent + lightningPercent;
  if (sum !== 100) return { error: { key: 'payoutSplit.errors.sum', values: { sum } } };
  return { split: { fiatPercent, onchainPercent, lightningPercent } };
}
