import { Alert, Button, Checkbox, Group, Paper, Progress, Stack, Table, Text, Title } from '@mantine/core';
import { PAY_TRANSACTIONS_LIMIT } from '@rayo/shared';
import { IconDownload } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { useParams } from 'react-router';
import { useOrganizationAdminRecord } from '../../api/back-office.ts';
import {
  type ExportProgress,
  exportOrganizationTransactions,
  organizationExportFile,
  useUnpaidTransactions,
} from '../../api/back-office-payments.ts';
import { dateTimeFormatter, FALLBACK_TIME_ZONE } from '../../components/date-time.ts';
import { useFormatLocale } from '../../components/format-locale.ts';
import { LabelledPagination } from '../../components/LabelledPagination.tsx';
import { formatDecimalMoney, formatMsatAsSats } from '../../components/money-format.ts';
import { useTranslation } from '../../i18n/index.ts';
import { MfaRequiredRedirect } from '../../session/MfaRequiredRedirect.tsx';
import { MarkPaidButton } from './MarkPaidButton.tsx';
import { OrganizationPayoutsSection } from './OrganizationPayoutsSection.tsx';
import { OrganizationTabs } from './OrganizationTabs.tsx';
import { selectedSum } from './payment-selection.ts';

/** Rows drawn at once; select all still takes every loaded row, up to PAY_TRANSACTIONS_LIMIT. */
const ROWS_PER_PAGE = 100;

type ExportState = { kind: 'idle' } | { kind: 'running'; progress: ExportProgress } | { kind: 'failed' };

/**
 * SPEC §2 back office, an organization's transactions tab: its sales whose fiat part is not
 * paid, checked one by one or all (`isChecked` lives here, on the client), marked paid after a
 * confirmation, and the export of its whole ledger.
 */
export function OrganizationTransactionsPage() {
  const { id = '' } = useParams();
  const { t } = useTranslation();
  const locale = useFormatLocale();
  const unpaid = useUnpaidTransactions(id);
  const [checked, setChecked] = useState<ReadonlySet<string>>(new Set());
  const [exporting, setExporting] = useState<ExportState>({ kind: 'idle' });
  const [page, setPage] = useState(1);
  // The organization's own clock, as on its dashboard; UTC (and said so) until its record is in.
  const record = useOrganizationAdminRecord(id).data;
  const organization = record?.organization;
  const timeZone = organization?.timeZone;
  const dateTime = useMemo(
    () => dateTimeFormatter(locale, timeZone ?? FALLBACK_TIME_ZONE, 'dateTime', timeZone === undefined),
    [locale, timeZone],
  );
  const number = new Intl.NumberFormat(locale);

  // SPEC §8: a failed load is only logged; the list is empty and the sums zero.
  if (unpaid.isError) console.error(unpaid.error);
  const transactions = unpaid.isError ? [] : (unpaid.data ?? []);
  const rows = transactions.map((transaction) => ({ ...transaction, isChecked: checked.has(transaction.id) }));
  const selected = rows.filter((row) => row.isChecked);
  const allChecked = rows.length > 0 && selected.length === rows.length;
  const pages = Math.max(1, Math.ceil(rows.length / ROWS_PER_PAGE));
  const shownPage = Math.min(page, pages);
  const shown = rows.slice((shownPage - 1) * ROWS_PER_PAGE, shownPage * ROWS_PER_PAGE);

  const toggle = (transactionId: string) => {
    const next = new Set(checked);
    if (next.has(transactionId)) next.delete(transactionId);
    else next.add(transactionId);
    setChecked(next);
  };
  const toggleAll = () => setChecked(allChecked ? new Set() : new Set(rows.map((row) => row.id)));

  const runExport = async () => {
    setExporting({ kind: 'running', progress: { pages: 0, rows: 0, total: 0 } });
    try {
      const zone = timeZone ?? FALLBACK_TIME_ZONE;
      const file = organizationExportFile({ name: organization?.name ?? id, timeZone: zone }, new Date());
      await exportOrganizationTransactions(id, { file, timeZone: zone }, (progress) =>
        setExporting({ kind: 'running', progress }),
      );
      setExporting({ kind: 'idle' });
    } catch (error) {
      console.error(error);
      setExporting({ kind: 'failed' });
    }
  };
  const progress = exporting.kind === 'running' ? exporting.progress : null;

  return (
    <>
      <MfaRequiredRedirect />
      <OrganizationTabs organizationId={id} active="transactions" />
      <Paper withBorder radius="md" p="md" component="section" aria-labelledby="unpaid-title">
        <Stack gap="sm">
          <Group justify="space-between" align="flex-start" gap="sm">
            <Stack gap={2}>
              <Title order={2} size="h4" id="unpaid-title">
                {t('backOffice.payments.unpaidTitle')}
              </Title>
              <Text size="sm" c="dimmed" aria-live="polite" data-testid="selection-summary">
                {selected.length === 0
                  ? t('backOffice.payments.selectionNone', { total: number.format(rows.length) })
                  : t('backOffice.payments.selection', {
                      count: selected.length,
                      total: number.format(rows.length),
                      sum: selectedSum(selected, locale),
                    })}
              </Text>
            </Stack>
            <Group gap="xs">
              <Button
                leftSection={<IconDownload size={16} />}
                variant="light"
                onClick={runExport}
                loading={exporting.kind === 'running'}
              >
                {t('backOffice.payments.export')}
              </Button>
              <MarkPaidButton
                transactionIds={selected.map((row) => row.id)}
                confirmMessage={t('backOffice.payments.confirmMessage', {
                  count: selected.length,
                  sum: selectedSum(selected, locale),
                })}
                withoutBankAccount={
                  organization && record?.bankingInfo.length === 0 ? [{ id, name: organization.name }] : []
                }
                onPaid={() => setChecked(new Set())}
              />
            </Group>
          </Group>
          {progress && (
            <Stack gap={2}>
              <Progress
                value={progress.total > 0 ? Math.min(100, (progress.rows / progress.total) * 100) : 100}
                animated={progress.total === 0}
                size="sm"
                aria-label={t('backOffice.payments.exporting')}
              />
              <Text size="xs" c="dimmed">
                {t('backOffice.payments.exportProgress', {
                  pages: number.format(progress.pages),
                  rows: number.format(progress.rows),
                  total: number.format(progress.total),
                })}
              </Text>
            </Stack>
          )}
          {exporting.kind === 'failed' && (
            <Alert color="red" role="alert">
              {t('backOffice.payments.exportFailed')}
            </Alert>
          )}
          {rows.length === PAY_TRANSACTIONS_LIMIT && (
            <Alert color="blue">{t('backOffice.payments.capped', { count: PAY_TRANSACTIONS_LIMIT })}</Alert>
          )}
          <Table.ScrollContainer minWidth={760}>
            <Table striped highlightOnHover verticalSpacing="xs" aria-busy={unpaid.isFetching}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th w={40}>
                    <Checkbox
                      aria-label={t('backOffice.payments.selectAll')}
                      checked={allChecked}
                      indeterminate={selected.length > 0 && !allChecked}
                      disabled={rows.length === 0}
                      onChange={toggleAll}
                    />
                  </Table.Th>
                  <Table.Th>{t('home.columns.settledAt')}</Table.Th>
                  <Table.Th>{t('home.columns.transactionId')}</Table.Th>
                  <Table.Th>{t('home.columns.currency')}</Table.Th>
                  <Table.Th ta="right">{t('home.columns.billAmount')}</Table.Th>
                  <Table.Th ta="right">{t('home.columns.fiatIncome')}</Table.Th>
                  <Table.Th ta="right">{t('home.columns.fiatPercentage')}</Table.Th>
                  <Table.Th ta="right">{t('home.columns.totalMsatCharged')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {shown.map((row) => (
                  <Table.Tr key={row.id} bg={row.isChecked ? 'var(--mantine-color-blue-light)' : undefined}>
                    <Table.Td>
                      <Checkbox
                        aria-label={t('backOffice.payments.select', { id: row.transactionId.slice(0, 12) })}
                        checked={row.isChecked}
                        onChange={() => toggle(row.id)}
                      />
                    </Table.Td>
                    <Table.Td style={{ whiteSpace: 'nowrap' }}>{dateTime(row.settledAt)}</Table.Td>
                    <Table.Td ff="monospace" title={row.transactionId}>
                      {row.transactionId.slice(0, 12)}…
                    </Table.Td>
                    <Table.Td>{row.currency}</Table.Td>
                    <Table.Td ta="right">{formatDecimalMoney(row.billAmount, row.currency, locale)}</Table.Td>
                    <Table.Td ta="right">{formatDecimalMoney(row.fiatIncome, row.currency, locale)}</Table.Td>
                    <Table.Td ta="right">{number.format(row.fiatPercentage)} %</Table.Td>
                    <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
                      {formatMsatAsSats(row.totalMsatCharged, locale)}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          <LabelledPagination pages={pages} page={shownPage} onChange={setPage} />
          {!unpaid.isPending && rows.length === 0 && (
            <Text c="dimmed" ta="center" py="md">
              {t('backOffice.payments.noneUnpaid')}
            </Text>
          )}
        </Stack>
      </Paper>
      <OrganizationPayoutsSection organizationId={id} />
    </>
  );
}
