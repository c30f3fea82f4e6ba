import { Divider, Group, Stack, Text } from '@mantine/core';
import { msatToWholeSats, SATS, type SaleQuote } from '@rayo/shared';
import { useFormatLocale } from '../../components/format-locale.ts';
import { formatPercent } from '../../components/format-percent.ts';
import { formatMoney, formatSats } from '../../components/money-format.ts';
import { useTranslation } from '../../i18n/index.ts';

function Line({ label, value, strong }: { label: string; value: string; strong?: boolean }) {
  return (
    <Group justify="space-between" wrap="nowrap">
      <Text fw={strong ? 700 : undefined} size={strong ? 'lg' : 'sm'} c={strong ? undefined : 'dimmed'}>
        {label}
      </Text>
      <Text fw={strong ? 700 : 500} size={strong ? 'lg' : 'sm'} ta="right">
        {value}
      </Text>
    </Group>
  );
}

/** Bill, tip, tax and total of the sale being typed, and what the total is in sats now. */
export function SaleSummary({
  figures,
  currency,
  showTip,
  taxPercentage,
}: {
  figures: SaleQuote;
  currency: string;
  showTip: boolean;
  taxPercentage: number;
}) {
  const { t } = useTranslation();
  const locale = useFormatLocale();
  const money = (minor: bigint) => formatMoney(minor, currency, locale);
  return (
    <Stack gap={4} aria-live="polite">
      <Line label={t('terminal.bill')} value={money(figures.billMinor)} />
      {showTip && <Line label={t('terminal.tipLine')} value={money(figures.tipMinor)} />}
      {taxPercentage > 0 && (
        <Line
          label={t('terminal.taxLine', { percent: formatPercent(taxPercentage, locale) })}
          value={money(figures.taxMinor)}
        />
      )}
      <Divider my={4} />
      <Line label={t('terminal.total')} value={money(figures.totalMinor)} strong />
      {currency !== SATS && (
        <Text size="sm" c="dimmed" ta="right">
          {t('terminal.approxSats', { sats: formatSats(msatToWholeSats(figures.amountMsat), locale) })}
        </Text>
      )}
    </Stack>
  );
}
