import { Alert, Button, Group, NativeSelect, Skeleton, Stack } from '@mantine/core';
import type { CustomDays, PeriodPreset } from '@rayo/shared';
import { lazy, Suspense, useEffect, useMemo, useState } from 'react';
import { Link } from 'react-router';
import { useAccounts } from '../../api/catalog.ts';
import {
  type DashboardFilter,
  dashboardFilter,
  type SaleNarrowing,
  useCurrentOrganization,
  useTransactionSums,
} from '../../api/dashboard.ts';
import { useDemoDataPreparing } from '../../api/readiness.ts';
import { ScreenTitle } from '../../components/ScreenTitle.tsx';
import { useTranslation } from '../../i18n/index.ts';
import { CsvDownload } from './CsvDownload.tsx';
import { ALL_ACCOUNTS, FIRST_VIEW } from './first-view.ts';
import { MetricCards } from './MetricCards.tsx';
import { PeriodFilter } from './PeriodFilter.tsx';

// The charts' code (recharts and d3) is most of the page's weight, and the table's (Mantine's
// table, pagination, tooltips and popover) a tenth of it: both are fetched once the metric cards
// have their figures, so they do not compete with them, and show when they arrive.
const SalesCharts = lazy(() => import('./SalesCharts.tsx').then((m) => ({ default: m.SalesCharts })));
const TransactionsTable = lazy(() => import('./TransactionsTable.tsx').then((m) => ({ default: m.TransactionsTable })));
// The setup checklist asks seven calls of its own: once the table shows, so that they do not hold
// up the table's code and its first page behind the browser's six connections.
const SetupPanel = lazy(() => import('./SetupPanel.tsx').then((m) => ({ default: m.SetupPanel })));

/** The browser's zone, used only when the organization could not be loaded (the failure is logged). */
const browserTimeZone = Intl.DateTimeFormat().resolvedOptions().timeZone;

export function HomePage() {
  const { t } = useTranslation();
  const accounts = useAccounts();
  const organization = useCurrentOrganization();
  const demoDataPreparing = useDemoDataPreparing();
  const [account, setAccount] = useState<string>(FIRST_VIEW.account);
  const [preset, setPreset] = useState<PeriodPreset>(FIRST_VIEW.preset);
  const [custom, setCustom] = useState<CustomDays | null>(FIRST_VIEW.custom);
  // Narrows the table and the CSV only: the sums and charts read the rollup, which has no source.
  const [narrowing, setNarrowing] = useState<SaleNarrowing>({});
  const timeZone = organization.data?.timeZone ?? (organization.isError ? browserTimeZone : null);

  // The range is fixed when the filter changes, so every call of one view asks for the same period.
  const filter = useMemo<DashboardFilter | null>(() => {
    if (!timeZone) return null;
    return dashboardFilter(timeZone, preset, custom, account);
  }, [preset, custom, account, timeZone]);

  const options = [
    { value: ALL_ACCOUNTS, label: t('home.all') },
    ...(accounts.data ?? []).map((a) => ({ value: a.id, label: a.name })),
  ];
  const accountNames = useMemo(
    () => new Map((accounts.data ?? []).map((a) => [a.id, a.name] as const)),
    [accounts.data],
  );
  const currency = organization.data?.currency ?? '';
  // The same query as the metric cards', answered once for both; once the first figures are in,
  // the charts and the table stay, whatever period is chosen next.
  const sums = useTransactionSums(filter);
  const sumsLoading = sums.isPending;
  const [restWanted, setRestWanted] = useState(false);
  const [tableShown, setTableShown] = useState(false);
  useEffect(() => {
    if (!sumsLoading) setRestWanted(true);
  }, [sumsLoading]);

  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-start" wrap="wrap" gap="sm">
        <ScreenTitle titleKey="nav.index" />
        <Group gap="sm" align="flex-start">
          <Button component={Link} to="/close" variant="default">
            {t('pageTitles.close')}
          </Button>
          <CsvDownload filter={filter} narrowing={narrowing} />
        </Group>
      </Group>
      {demoDataPreparing && (
        <Alert color="blue" role="status">
          {t('home.demoDataPreparing')}
        </Alert>
      )}
      <Stack gap="sm">
        <PeriodFilter preset={preset} custom={custom} onPreset={setPreset} onCustom={setCustom} />
        <NativeSelect
          label={t('home.account')}
          data={options}
          value={account}
          onChange={(event) => setAccount(event.currentTarget.value)}
          maw={320}
        />
      </Stack>
      <MetricCards filter={filter} currency={currency} />
      {!restWanted ? (
        <>
          <Skeleton h={320} radius="md" />
          <Skeleton h={320} radius="md" />
        </>
      ) : (
        <>
          {tableShown && (
            <Suspense fallback={null}>
              <SetupPanel bitcoinToDisburse={sums.data?.msatsToDisburse ?? 0} />
            </Suspense>
          )}
          <Suspense fallback={<Skeleton h={320} radius="md" />}>
            <SalesCharts filter={filter} timeZone={timeZone} />
          </Suspense>
          <Suspense fallback={<Skeleton h={320} radius="md" />}>
            <TransactionsTable
              filter={filter}
              timeZone={timeZone ?? browserTimeZone}
              accountNames={accountNames}
              narrowing={narrowing}
              onNarrow={setNarrowing}
              onShown={() => setTableShown(true)}
            />
          </Suspense>
        </>
      )}
    </Stack>
  );
}
