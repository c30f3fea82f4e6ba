import { Chip, Group, Skeleton, Stack, Text } from '@mantine/core';
import type { DatesRangeValue } from '@mantine/dates';
import { type CustomDays, type PeriodPreset, periodPresets } from '@rayo/shared';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from '../../i18n/index.ts';

const CustomRangeInput = lazy(() => import('./CustomRangeInput.tsx').then((m) => ({ default: m.CustomRangeInput })));

type Props = {
  preset: PeriodPreset;
  custom: CustomDays | null;
  onPreset: (preset: PeriodPreset) => void;
  onCustom: (custom: CustomDays | null) => void;
};

/** The presets as one choice of chips, which wrap on a phone; a date range appears for Custom. */
export function PeriodFilter({ preset, custom, onPreset, onCustom }: Props) {
  const { t } = useTranslation();
  // The picker's own value, a half-picked range included. Were it `custom` alone, the first day
  // clicked would read back as no day at all, the picker would forget it, and no range could be
  // picked.
  const [range, setRange] = useState<DatesRangeValue>([custom?.from ?? null, custom?.to ?? null]);
  const pick = (next: DatesRangeValue) => {
    setRange(next);
    const [from, to] = next;
    onCustom(from && to ? { from: day(from), to: day(to) } : null);
  };
  return (
    <Stack gap={6}>
      <Text size="sm" fw={500} id="period-label">
        {t('home.period')}
      </Text>
      <Chip.Group multiple={false} value={preset} onChange={(value) => onPreset(value as PeriodPreset)}>
        <Group gap="xs" role="radiogroup" aria-labelledby="period-label">
          {periodPresets.map((value) => (
            <Chip key={value} value={value} type="radio" size="sm" variant="outline">
              {t(`home.periods.${value}`)}
            </Chip>
          ))}
        </Group>
      </Chip.Group>
      {preset === 'custom' && (
        <Suspense fallback={<Skeleton h={60} maw={320} />}>
          <CustomRangeInput value={range} onChange={pick} />
        </Suspense>
      )}
    </Stack>
  );
}

/** The picker gives `YYYY-MM-DD` strings; older shapes (a Date) are read as that calendar day. */
function day(value: string | Date): string {
  return typeof value === 'string' ? value.slice(0, 10) : value.toISOString().slice(0, 10);
}
