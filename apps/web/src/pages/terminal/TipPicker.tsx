import { SegmentedControl, Stack, TextInput } from '@mantine/core';
import { SATS, TIP_PRESETS, type TipChoice } from '@rayo/shared';
import { useFormatLocale } from '../../components/format-locale.ts';
import { formatPercent } from '../../components/format-percent.ts';
import { useTranslation } from '../../i18n/index.ts';

const OTHER = 'other';

/** Tip presets as a share of the bill, or an amount typed in the BPT's currency. */
export function TipPicker({
  value,
  onChange,
  currency,
  exponent,
  error,
}: {
  value: TipChoice;
  onChange: (tip: TipChoice) => void;
  currency: string;
  exponent: number;
  /** Why the typed tip cannot be charged; the text stays as typed so the cashier sees what is wrong. */
  error?: string | null;
}) {
  const { t } = useTranslation();
  const locale = useFormatLocale();
  const selected = value.kind === 'percent' ? String(value.percent) : OTHER;
  return (
    <Stack gap="xs">
      <SegmentedControl
        fullWidth
        aria-label={t('terminal.tip')}
        value={selected}
        onChange={(choice) =>
          onChange(choice === OTHER ? { kind: 'amount', amount: '' } : { kind: 'percent', percent: Number(choice) })
        }
        data={[
          ...TIP_PRESETS.map((percent) => ({ value: String(percent), label: formatPercent(percent, locale) })),
          { value: OTHER, label: t('terminal.tipOther') },
        ]}
      />
      {value.kind === 'amount' && (
        <TextInput
          label={t('terminal.tipAmount')}
          inputMode={exponent > 0 ? 'decimal' : 'numeric'}
          autoComplete="off"
          rightSection={currency === SATS ? t('bpts.sats') : currency}
          rightSectionWidth={56}
          value={value.amount}
          onChange={(event) => onChange({ kind: 'amount', amount: event.currentTarget.value.replace(',', '.') })}
          error={error || undefined}
          description={exponent > 0 ? t('terminal.tipAmountHint', { count: exponent }) : t('terminal.tipAmountWhole')}
          data-autofocus
        />
      )}
    </Stack>
  );
}
