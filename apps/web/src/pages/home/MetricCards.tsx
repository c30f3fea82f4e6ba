import { Paper, SimpleGrid, Skeleton, Text } from '@mantine/core';
import { type DashboardFilter, useTransactionSums, zeroSums } from '../../api/dashboard.ts';
import { useFormatLocale } from '../../components/format-locale.ts';
import { useTranslation } from '../../i18n/index.ts';
import { formatMetrics } from './dashboard-format.ts';

/** SPEC §3 transaction metrics; SPEC §8: when they fail to load they read zero (the failure is logged). */
export function MetricCards({ filter, currency }: { filter: DashboardFilter | null; currency: string }) {
  const { t } = useTranslation();
  const locale = useFormatLocale();
  const query = useTransactionSums(filter);
  const sums = (!query.isError && query.data) || zeroSums(currency);
  const metrics = formatMetrics(sums, locale);
  return (
    <SimpleGrid
      cols={{ base: 1, xs: 2, xl: 4 }}
      spacing="md"
      aria-label={t('home.metrics.title')}
      aria-busy={query.isFetching}
      component="section"
    >
      {metrics.map((metric) => (
        <Paper key={metric.key} withBorder p="md" radius="md" data-metric={metric.key}>
          <Text size="sm" c="dimmed" fw={500}>
            {t(`home.metrics.${metric.key}`, { currency: sums.currency })}
          </Text>
          {query.isPending ? (
            // Until the first figures arrive: a zero would read as a real figure.
            <Skeleton h={34} w="70%" />
          ) : (
            <Text
              fz={{ base: 22, sm: 26 }}
              fw={700}
              lh={1.3}
              style={{ fontVariantNumeric: 'tabular-nums', overflowWrap: 'anywhere' }}
              data-testid={`metric-${metric.key}`}
            >
              {metric.value}
            </Text>
          )}
          <Text size="xs" c="dimmed">
            {t(`home.metrics.${metric.key}Hint`, { currency: sums.currency })}
          </Text>
        </Paper>
      ))}
    </SimpleGrid>
  );
}
