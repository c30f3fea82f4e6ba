import { ActionIcon, Badge, CopyButton, Group, Stack, Text, Tooltip } from '@mantine/core';
import type { Transaction } from '@rayo/shared';
import { IconCheck, IconCopy } from '@tabler/icons-react';
import { formatDecimalMoney, formatMsatAsSats } from '../../components/money-format.ts';
import type { TFunction } from '../../i18n/index.ts';
import { saleIdLabel, shortenId, type TransactionColumn } from './columns.ts';

export type CellContext = {
  t: TFunction;
  locale: string;
  dateTime: (iso: string) => string;
  accountNames: ReadonlyMap<string, string>;
};

/** Columns whose figures line up on the right, like numbers in a spreadsheet. */
export const numericColumns: ReadonlySet<TransactionColumn> = new Set([
  'totalMsatCharged',
  'billAmount',
  'msatIncome',
  'fiatIncome',
  'rate',
  'txFeeMsat',
  'conversionFeeMsat',
  'tip',
  'tax',
  'fiatPercentage',
]);

function LongId({ id, label, t }: { id: string; label: string; t: TFunction }) {
  return (
    <Group gap={4} wrap="nowrap">
      <Text span ff="monospace" size="sm" title={id}>
        {saleIdLabel(id)}
      </Text>
      <CopyButton value={id}>
        {({ copied, copy }) => (
          <Tooltip label={copied ? t('home.table.copied') : label} withArrow>
            <ActionIcon variant="subtle" size="sm" color={copied ? 'teal' : 'gray'} onClick={copy} aria-label={label}>
              {copied ? <IconCheck size={14} /> : <IconCopy size={14} />}
            </ActionIcon>
          </Tooltip>
        )}
      </CopyButton>
    </Group>
  );
}

/** One cell of the transactions table, formatted for the user's language. */
export function TransactionCell({
  column,
  transaction: tx,
  context,
}: {
  column: TransactionColumn;
  transaction: Transaction;
  context: CellContext;
}) {
  const { t, locale, dateTime, accountNames } = context;
  const money = (decimal: string) => formatDecimalMoney(decimal, tx.currency, locale);
  switch (column) {
    case 'createdAt':
      return dateTime(tx.createdAt);
    case 'settledAt':
      return dateTime(tx.settledAt);
    case 'account':
      return accountNames.get(tx.accountId) ?? shortenId(tx.accountId);
    case 'source':
      return (
        <Stack gap={0}>
          <Text span size="sm">
            {t(`home.table.sources.${tx.source}`)}
            {tx.paidVia === 'onchain' ? ` · ${t('home.table.onchain')}` : ''}
          </Text>
          {tx.sourceName && (
            <Text span size="xs" c="dimmed" lineClamp={1} title={tx.sourceName}>
              {tx.sourceName}
            </Text>
          )}
        </Stack>
      );
    case 'description':
      return tx.description ? (
        <Text span size="sm" lineClamp={2} title={tx.description}>
          {tx.description}
        </Text>
      ) : (
        '—'
      );
    case 'transactionId':
      return <LongId id={tx.transactionId} label={t('home.table.copy')} t={t} />;
    case 'bptId':
      return tx.bptId ? (
        <Text span ff="monospace" size="sm" title={tx.bptId}>
          {shortenId(tx.bptId)}
        </Text>
      ) : (
        '—'
      );
    case 'currencyPair':
      return tx.currencyPair;
    case 'totalMsatCharged':
      return formatMsatAsSats(tx.totalMsatCharged, locale);
    case 'msatIncome':
      return formatMsatAsSats(tx.msatIncome, locale);
    case 'txFeeMsat':
      return formatMsatAsSats(tx.txFeeMsat, locale);
    case 'conversionFeeMsat':
      return formatMsatAsSats(tx.conversionFeeMsat, locale);
    case 'billAmount':
      return money(tx.billAmount);
    case 'fiatIncome':
      return money(tx.fiatIncome);
    case 'tip':
      return money(tx.tip);
    case 'tax':
      return money(tx.tax);
    case 'rate':
      return `${new Intl.NumberFormat(locale, { maximumFractionDigits: 3 }).format(tx.rate as Intl.StringNumericLiteral)} sats/${tx.currency}`;
    case 'disbursed':
      return (
        <Badge variant="light" color={tx.disbursed ? 'teal' : 'gray'}>
          {tx.disbursed ? t('home.table.yes') : t('home.table.no')}
        </Badge>
      );
    case 'currency':
      return tx.currency;
    case 'fiatPercentage':
      return new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 2 }).format(
        tx.fiatPercentage / 100,
      );
  }
}
