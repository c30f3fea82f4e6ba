import { Alert, Button, Checkbox, Group, Paper, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import type { CountryReport, CurrencyAmount } from '@rayo/shared';
import { IconDownload, IconX } from '@tabler/icons-react';
import { useState } from 'react';
import { downloadCountryReportCsv, useCountryReport } from '../../api/back-office-payments.ts';
import { useFormatLocale } from '../../components/format-locale.ts';
import { formatDecimalMoney } from '../../components/money-format.ts';
import { type TFunction, useTranslation } from '../../i18n/index.ts';
import { MarkPaidButton } from './MarkPaidButton.tsx';
import { idsOfCheckedRows } from './payment-selection.ts';

/** Paid fiat per currency; with none paid there is no currency to write a zero in, so it says so. */
function fiat(amounts: readonly CurrencyAmount[], locale: string, t: TFunction): string {
  if (amounts.length === 0) return t('backOffice.reports.noFiatPaid');
  return amounts.map((amount) => formatDecimalMoney(amount.amount, amount.currency, locale)).join(' + ');
}

/** A figure; a wide one (amounts in several currencies) takes two cells, so no amount breaks inside. */
function Figure({ label, value, wide = false }: { label: string; value: string; wide?: boolean }) {
  return (
    <Paper withBorder radius="md" p="sm" style={wide ? { gridColumn: 'span 2' } : undefined}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text fw={600} fz={{ base: 'md', sm: 'lg' }} style={{ overflowWrap: 'break-word' }}>
        {value}
      </Text>
    </Paper>
  );
}

/** SPEC §3 country report totals, the seven figures, as the CSV's totals say them. */
function Totals({ totals }: { totals: CountryReport['totals'] }) {
  const { t } = useTranslation();
  const locale = useFormatLocale();
  const number = new Intl.NumberFormat(locale);
  return (
    <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="xs" data-testid="country-report-totals">
      <Figure label={t('backOffice.reports.pendingTransactions')} value={number.format(totals.pendingTransactions)} />
      <Figure label={t('backOffice.reports.paidTransactions')} value={number.format(totals.paidTransactions)} />
      <Figure label={t('backOffice.reports.organizations')} value={number.format(totals.organizations)} />
      <Figure label={t('backOffice.reports.activeOrganizations')} value={number.format(totals.activeOrganizations)} />
      <Figure
        label={t('backOffice.reports.paidSats')}
        value={number.format(totals.paidSats as Intl.StringNumericLiteral)}
      />
      <Figure label={t('backOffice.reports.paidFiat')} value={fiat(totals.paidFiat, locale, t)} wide />
      <Figure label={t('backOffice.reports.feeUsd')} value={formatDecimalMoney(totals.feeUsd, 'USD', locale)} />
    </SimpleGrid>
  );
}

/**
 * SPEC §2 by-country reports: a row per organization of the country (-1 all), checked one by
 * one or all and cleared; marking paid sends the ids of every transaction of the checked rows.
 */
export function CountryReportPanel({ countryId }: { countryId: number }) {
  const { t } = useTranslation();
  const locale = useFormatLocale();
  const report = useCountryReport(countryId);
  const [checked, setChecked] = useState<{ countryId: number; ids: ReadonlySet<string> }>({
    countryId,
    ids: new Set(),
  });
  const [csvFailed, setCsvFailed] = useState(false);
  const number = new Intl.NumberFormat(locale);

  if (report.isError) console.error(report.error);
  // Another country starts with nothing checked.
  const checkedIds = checked.countryId === countryId ? checked.ids : new Set<string>();
  const rows = (report.isError ? [] : (report.data?.rows ?? [])).map((row) => ({
    ...row,
    isChecked: checkedIds.has(row.organizationId),
  }));
  const selected = rows.filter((row) => row.isChecked);
  const transactionIds = idsOfCheckedRows(rows, checkedIds);
  const allChecked = rows.length > 0 && selected.length === rows.length;
  const setIds = (ids: Iterable<string>) => setChecked({ countryId, ids: new Set(ids) });
  const toggle = (organizationId: string) => {
    const next = new Set(checkedIds);
    if (next.has(organizationId)) next.delete(organizationId);
    else next.add(organizationId);
    setIds(next);
  };

  const downloadCsv = async () => {
    setCsvFailed(false);
    try {
      await downloadCountryReportCsv(countryId);
    } catch (error) {
      console.error(error);
      setCsvFailed(true);
    }
  };

  return (
    <Stack gap="md" component="section" aria-labelledby="country-report-title">
      <Group justify="space-between" gap="xs">
        <Title order={2} size="h4" id="country-report-title">
          {t('backOffice.reports.title')}
        </Title>
        <Button leftSection={<IconDownload size={16} />} variant="light" onClick={downloadCsv}>
          {t('backOffice.reports.downloadCsv')}
        </Button>
      </Group>
      {csvFailed && (
        <Alert color="red" role="alert">
          {t('errors.default')}
        </Alert>
      )}
      {report.data && !report.isError && <Totals totals={report.data.totals} />}
      <Group justify="space-between" gap="xs">
        <Text size="sm" c="dimmed" aria-live="polite">
          {t('backOffice.reports.selection', {
            rows: number.format(selected.length),
            transactions: number.format(transactionIds.length),
          })}
        </Text>
        <Group gap="xs">
          <Button
            variant="default"
            leftSection={<IconX size={16} />}
            disabled={selected.length === 0}
            onClick={() => setIds([])}
          >
            {t('backOffice.reports.clear')}
          </Button>
          <MarkPaidButton
            transactionIds={transactionIds}
            confirmMessage={t('backOffice.reports.confirmMessage', {
              count: transactionIds.length,
              organizations: t('backOffice.reports.organizationCount', {
                count: selected.length,
                formatted: number.format(selected.length),
              }),
            })}
            withoutBankAccount={selected
              .filter((row) => !row.hasBankAccount && row.transactions.length > 0)
              .map((row) => ({ id: row.organizationId, name: row.organizationName }))}
            onPaid={() => setIds([])}
          />
        </Group>
      </Group>
      <Table.ScrollContainer minWidth={720}>
        <Table striped highlightOnHover verticalSpacing="xs" aria-busy={report.isFetching}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th w={40}>
                <Checkbox
                  aria-label={t('backOffice.reports.selectAll')}
                  checked={allChecked}
                  indeterminate={selected.length > 0 && !allChecked}
                  disabled={rows.length === 0}
                  onChange={() => setIds(allChecked ? [] : rows.map((row) => row.organizationId))}
                />
              </Table.Th>
              <Table.Th>{t('backOffice.reports.columns.organization')}</Table.Th>
              <Table.Th ta="right">{t('backOffice.reports.columns.paidFiat')}</Table.Th>
              <Table.Th ta="right">{t('backOffice.reports.columns.paidSats')}</Table.Th>
              <Table.Th ta="right">{t('backOffice.reports.columns.paidTransactions')}</Table.Th>
              <Table.Th ta="right">{t('backOffice.reports.columns.pendingTransactions')}</Table.Th>
              <Table.Th ta="right">{t('backOffice.reports.columns.feeUsd')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((row) => (
              <Table.Tr key={row.organizationId} bg={row.isChecked ? 'var(--mantine-color-blue-light)' : undefined}>
                <Table.Td>
                  <Checkbox
                    aria-label={t('backOffice.reports.select', { name: row.organizationName })}
                    checked={row.isChecked}
                    onChange={() => toggle(row.organizationId)}
                  />
                </Table.Td>
                <Table.Td>{row.organizationName}</Table.Td>
                <Table.Td ta="right">{fiat(row.paidFiat, locale, t)}</Table.Td>
                <Table.Td ta="right">
                  {number.format((BigInt(row.paidMsat) / 1000n).toString() as Intl.StringNumericLiteral)}
                </Table.Td>
                <Table.Td ta="right">{number.format(row.paidTransactionsCount)}</Table.Td>
                <Table.Td ta="right">{number.format(row.pendingTransactionsCount)}</Table.Td>
                <Table.Td ta="right">{formatDecimalMoney(row.feeUsdEarned, 'USD', locale)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {!report.isPending && rows.length === 0 && (
        <Text c="dimmed" ta="center" py="md">
          {t('backOffice.reports.empty')}
        </Text>
      )}
    </Stack>
  );
}
