import { Button, Group, Paper, Select, Stack, Table, Text, Title, UnstyledButton, VisuallyHidden } from '@mantine/core';
import { type SaleSource, saleSources, type Transaction } from '@rayo/shared';
import { IconArrowDown, IconArrowUp } from '@tabler/icons-react';
import { lazy, Suspense, useEffect, useEffectEvent, useMemo, useState } from 'react';
import { type DashboardFilter, type SaleNarrowing, type TableSort, useTransactionPage } from '../../api/dashboard.ts';
import { dateTimeFormatter } from '../../components/date-time.ts';
import { useFormatLocale } from '../../components/format-locale.ts';
import { LabelledPagination } from '../../components/LabelledPagination.tsx';
import { useTranslation } from '../../i18n/index.ts';
import { ColumnChooser } from './ColumnChooser.tsx';
import { isSortable, loadColumns, nextSort, saveColumns, type TransactionColumn } from './columns.ts';
import { useRefundTexts } from './refund-texts.ts';
import { type CellContext, numericColumns, TransactionCell } from './TransactionCell.tsx';

const PAGE_SIZES = ['10', '25', '50', '100'];
const ALL_ORIGINS = 'all';
const ONCHAIN = 'onchain';

/** The choice of the source list that a narrowing is. */
function choiceOf(narrowing: SaleNarrowing): string {
  return narrowing.paidVia ?? narrowing.source ?? ALL_ORIGINS;
}

function narrowingOf(choice: string | null): SaleNarrowing {
  if (choice === null || choice === ALL_ORIGINS) return {};
  return choice === ONCHAIN ? { paidVia: ONCHAIN } : { source: choice as SaleSource };
}

const RefundModal = lazy(() => import('./RefundModal.tsx').then((m) => ({ default: m.RefundModal })));

/**
 * The period's transactions, newest settled first; the two date headers sort by their own
 * column, either way (the server's allow-list). SPEC §8: a failed load is only logged and the
 * table shows nothing.
 */
export function TransactionsTable({
  filter,
  timeZone,
  accountNames,
  narrowing,
  onNarrow,
  onShown,
}: {
  filter: DashboardFilter | null;
  timeZone: string;
  accountNames: ReadonlyMap<string, string>;
  /** Where the sales listed (and downloaded) came from, or how they were paid. */
  narrowing: SaleNarrowing;
  onNarrow: (narrowing: SaleNarrowing) => void;
  /** Called once the first page of sales is shown. */
  onShown?: () => void;
}) {
  const { t } = useTranslation();
  const rt = useRefundTexts();
  const locale = useFormatLocale();
  const [columns, setColumns] = useState<TransactionColumn[]>(() => loadColumns());
  const [limit, setLimit] = useState(10);
  const [sort, setSort] = useState<TableSort>({ column: 'settledAt', order: 'desc' });
  const [refunding, setRefunding] = useState<Transaction | null>(null);
  // A new filter, sort or page size starts again from the first page, in the same render, so
  // that no page of the old view is asked for with the new filter.
  const viewKey = `${JSON.stringify(filter)}|${limit}|${sort.column}|${sort.order}|${choiceOf(narrowing)}`;
  const [paging, setPaging] = useState({ viewKey, page: 1 });
  const page = paging.viewKey === viewKey ? paging.page : 1;
  const setPage = (next: number) => setPaging({ viewKey, page: next });
  const query = useTransactionPage(filter, page, limit, sort, narrowing);
  const transactions = query.isError ? [] : (query.data?.transactions ?? []);
  const total = query.isError ? 0 : (query.data?.total ?? 0);
  const shown = query.data !== undefined || query.isError;
  const notifyShown = useEffectEvent(() => onShown?.());
  useEffect(() => {
    if (shown) notifyShown();
  }, [shown]);
  const pages = Math.max(1, Math.ceil(total / limit));
  const context = useMemo<CellContext>(
    () => ({ t, locale, dateTime: dateTimeFormatter(locale, timeZone), accountNames }),
    [t, locale, timeZone, accountNames],
  );
  const chooseColumns = (next: TransactionColumn[]) => {
    setColumns(next);
    saveColumns(next);
  };
  const from = total === 0 ? 0 : (page - 1) * limit + 1;
  const to = Math.min(total, page * limit);
  const number = new Intl.NumberFormat(locale);

  return (
    <Paper withBorder radius="md" p="md" component="section" aria-labelledby="transactions-title">
      <Stack gap="sm">
        <Group justify="space-between" gap="xs">
          <Title order={2} size="h4" id="transactions-title">
            {t('home.table.title')}
          </Title>
          <Group gap="xs" wrap="wrap">
            <Select
              aria-label={t('home.columns.source')}
              size="xs"
              w={150}
              allowDeselect={false}
              value={choiceOf(narrowing)}
              onChange={(value) => onNarrow(narrowingOf(value))}
              data={[
                { value: ALL_ORIGINS, label: t('home.all') },
                ...saleSources.map((value) => ({ value, label: t(`home.table.sources.${value}`) })),
                // Every sale paid on-chain, whatever its source.
                { value: ONCHAIN, label: t('checkout.onchain') },
              ]}
            />
            <ColumnChooser columns={columns} onChange={chooseColumns} />
          </Group>
        </Group>
        <Table.ScrollContainer minWidth={Math.max(360, columns.length * 115)}>
          <Table striped highlightOnHover verticalSpacing="xs" aria-busy={query.isFetching} data-total={total}>
            <Table.Thead>
              <Table.Tr>
                {columns.map((column) => {
                  const sorted = sort.column === column ? sort.order : null;
                  const Arrow = sorted === 'asc' ? IconArrowUp : IconArrowDown;
                  return (
                    <Table.Th
                      key={column}
                      ta={numericColumns.has(column) ? 'right' : undefined}
                      aria-sort={
                        sorted
                          ? sorted === 'desc'
                            ? 'descending'
                            : 'ascending'
                          : isSortable(column)
                            ? 'none'
                            : undefined
                      }
                      style={{ whiteSpace: 'nowrap' }}
                    >
                      {isSortable(column) ? (
                        <UnstyledButton fw={700} fz="sm" onClick={() => setSort(nextSort(sort, column))}>
                          {t(`home.columns.${column}`)}
                          {sorted && (
                            <Arrow
                              size={14}
                              aria-label={t(sorted === 'desc' ? 'home.table.newestFirst' : 'home.table.oldestFirst')}
                              style={{ verticalAlign: 'middle' }}
                            />
                          )}
                        </UnstyledButton>
                      ) : (
                        t(`home.columns.${column}`)
                      )}
                    </Table.Th>
                  );
                })}
                <Table.Th>
                  <VisuallyHidden>{rt('column')}</VisuallyHidden>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {transactions.map((transaction) => (
                <Table.Tr key={transaction.id}>
                  {columns.map((column) => (
                    <Table.Td
                      key={column}
                      ta={numericColumns.has(column) ? 'right' : undefined}
                      style={{ whiteSpace: 'nowrap', fontVariantNumeric: 'tabular-nums' }}
                    >
                      <TransactionCell column={column} transaction={transaction} context={context} />
                    </Table.Td>
                  ))}
                  <Table.Td>
                    <Button size="compact-xs" variant="subtle" onClick={() => setRefunding(transaction)}>
                      {rt('open')}
                    </Button>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
        {transactions.length === 0 && !query.isPending && (
          <Text c="dimmed" ta="center" py="lg">
            {t('home.table.empty')}
          </Text>
        )}
        <Group justify="space-between" gap="sm">
          <Group gap="xs">
            <Select
              aria-label={t('home.table.pageSize')}
              data={PAGE_SIZES}
              value={String(limit)}
              onChange={(value) => setLimit(Number(value ?? 10))}
              allowDeselect={false}
              w={80}
              size="xs"
            />
            <Text size="sm" c="dimmed">
              {t('home.table.showing', {
                from: number.format(from),
                to: number.format(to),
                total: number.format(total),
              })}
            </Text>
          </Group>
          <LabelledPagination
            pages={pages}
            page={page}
            onChange={setPage}
            siblings={1}
            boundaries={1}
            aria-label={t('home.table.pagination')}
          />
        </Group>
      </Stack>
      {refunding && (
        <Suspense fallback={null}>
          <RefundModal transaction={refunding} onClose={() => setRefunding(null)} />
        </Suspense>
      )}
    </Paper>
  );
}
