import { AreaChart, BarChart, DonutChart } from '@mantine/charts';
import { Paper, SegmentedControl, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { bucketFor, type TransactionSeries } from '@rayo/shared';
import { type ReactNode, useState } from 'react';
import { type DashboardFilter, useTransactionSeries } from '../../api/dashboard.ts';
import { useFormatLocale } from '../../components/format-locale.ts';
import { formatDecimalMoney, formatMsatAsSats } from '../../components/money-format.ts';
import { useTranslation } from '../../i18n/index.ts';
import { chartNumber, chartPoints, fillBuckets } from './dashboard-format.ts';

const ACCOUNT_COLORS = ['teal.6', 'indigo.6', 'orange.6', 'grape.6', 'cyan.6', 'lime.7', 'pink.6', 'yellow.7'];

function ChartCard({ title, action, children }: { title: string; action?: ReactNode; children: ReactNode }) {
  return (
    <Paper withBorder p="md" radius="md" component="section" aria-label={title}>
      <Stack gap="sm">
        <Title order={2} size="h5">
          {title}
        </Title>
        {action}
        {children}
      </Stack>
    </Paper>
  );
}

/** Sales, count, tips and the split by account for the filter, bucketed to the period's length. */
export function SalesCharts({ filter, timeZone }: { filter: DashboardFilter | null; timeZone: string | null }) {
  const { t } = useTranslation();
  const bucket = bucketFor(filter ?? {});
  const query = useTransactionSeries(timeZone ? filter : null, bucket);
  const series = query.isError ? undefined : query.data;
  if (!series) return null;
  if (series.points.length === 0) {
    return (
      <Paper withBorder p="md" radius="md">
        <Text c="dimmed" ta="center">
          {t('home.charts.noData')}
        </Text>
      </Paper>
    );
  }
  return <Charts series={fillBuckets(series, filter ?? {}, new Date())} />;
}

function Charts({ series }: { series: TransactionSeries }) {
  const { t } = useTranslation();
  const locale = useFormatLocale();
  const phone = useMediaQuery('(max-width: 48em)');
  const [unit, setUnit] = useState<'fiat' | 'sats'>('fiat');
  const data = chartPoints(series, locale);
  const number = chartNumber(locale);
  const count = chartNumber(locale, 0);
  const currency = series.currency;
  const xAxisProps = { minTickGap: phone ? 24 : 12, interval: 'preserveStartEnd' as const };
  const salesKey = unit === 'fiat' ? 'salesFiat' : 'salesSats';
  const salesLabel = unit === 'fiat' ? currency : 'sats';
  const byAccount = series.byAccount.map((row, index) => ({
    name: row.name,
    value: unit === 'fiat' ? Number(row.salesFiat) : Math.round(row.salesMsat / 1000),
    color: ACCOUNT_COLORS[index % ACCOUNT_COLORS.length] ?? 'gray.6',
    label:
      unit === 'fiat' ? formatDecimalMoney(row.salesFiat, currency, locale) : formatMsatAsSats(row.salesMsat, locale),
  }));
  const unitToggle = (
    <SegmentedControl
      size="xs"
      aria-label={t('home.charts.unit')}
      value={unit}
      onChange={(value) => setUnit(value as 'fiat' | 'sats')}
      data={[
        { value: 'fiat', label: t('home.charts.inFiat', { currency }) },
        { value: 'sats', label: t('home.charts.inSats') },
      ]}
      style={{ alignSelf: 'flex-start' }}
    />
  );
  return (
    <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
      <ChartCard title={t('home.charts.sales')} action={unitToggle}>
        <AreaChart
          h={240}
          data={data}
          dataKey="label"
          series={[{ name: salesKey, label: salesLabel, color: unit === 'fiat' ? 'teal.6' : 'orange.6' }]}
          curveType="monotone"
          valueFormatter={number}
          xAxisProps={xAxisProps}
          yAxisProps={{ width: 64 }}
          withDots={data.length < 40}
          gridAxis="y"
        />
      </ChartCard>
      <ChartCard title={t('home.charts.salesCount')}>
        <BarChart
          h={240}
          data={data}
          dataKey="label"
          series={[{ name: 'count', label: t('home.charts.count'), color: 'indigo.6' }]}
          valueFormatter={count}
          xAxisProps={xAxisProps}
          yAxisProps={{ width: 48, allowDecimals: false }}
          gridAxis="y"
        />
      </ChartCard>
      <ChartCard title={t('home.charts.tips')}>
        <BarChart
          h={240}
          data={data}
          dataKey="label"
          series={[{ name: 'tipsFiat', label: currency, color: 'yellow.7' }]}
          valueFormatter={number}
          xAxisProps={xAxisProps}
          yAxisProps={{ width: 64 }}
          gridAxis="y"
        />
      </ChartCard>
      <ChartCard title={t('home.charts.byAccount')}>
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm" style={{ alignItems: 'center' }}>
          <DonutChart
            data={byAccount}
            valueFormatter={number}
            tooltipDataSource="segment"
            size={180}
            thickness={28}
            mx="auto"
          />
          <Stack gap={6}>
            {byAccount.map((row) => (
              <Text key={row.name} size="sm">
                <Text span c={row.color} fw={700} aria-hidden>
                  ●{' '}
                </Text>
                {row.name}: <strong>{row.label}</strong>
              </Text>
            ))}
          </Stack>
        </SimpleGrid>
      </ChartCard>
    </SimpleGrid>
  );
}
