import { Loader, Table, Text, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { msatToWholeSats, parseAmount, type TerminalSale } from '@rayo/shared';
import { useDeferredValue } from 'react';
import { type TerminalSource, useLatestTransactions } from '../../api/terminal.ts';
import { useDateTimeFormat } from '../../components/date-time.ts';
import { useFormatLocale } from '../../components/format-locale.ts';
import { formatMoney, formatSats } from '../../components/money-format.ts';
import { useTranslation } from '../../i18n/index.ts';

/**
 * One sale. On a phone its date takes a line of its own above the five amounts, so that tax,
 * total and sats fit the screen's width rather than hide past its edge.
 */
/** The six columns' least width; a screen narrower than it and the page's margins gets the phone layout. */
const TABLE_MIN_WIDTH_PX = 560;
const PHONE_QUERY = `(max-width: ${TABLE_MIN_WIDTH_PX + 40 - 0.02}px)`;

/** What a sale's refunds add up to, under its date: all of it, or a part. */
function Refunded({ transaction }: { transaction: TerminalSale }) {
  const { t } = useTranslation();
  const locale = useFormatLocale();
  if (transaction.refundedMsat === 0) return null;
  const values = {
    sats: formatSats(msatToWholeSats(transaction.refundedMsat), locale),
    amount: formatMoney(parseAmount(transaction.refundedAmount, transaction.currency), transaction.currency, locale),
  };
  const whole = transaction.refundedMsat >= transaction.totalMsatCharged;
  return (
    // It wraps under the date, which does not, so that the amounts keep the table's width.
    <Text size="xs" c="orange.8" fw={600} style={{ whiteSpace: 'normal' }} data-testid="sale-refunded">
      {t(whole ? 'terminal.refunded' : 'terminal.partlyRefunded', values)}
    </Text>
  );
}

function Row({ transaction, phone }: { transaction: TerminalSale; phone: boolean }) {
  const locale = useFormatLocale();
  const { currency } = transaction;
  const money = (decimal: string) => formatMoney(parseAmount(decimal, currency), currency, locale);
  const total = [transaction.billAmount, transaction.tip, transaction.tax].reduce(
    (sum, decimal) => sum + parseAmount(decimal, currency),
    0n,
  );
  const date = useDateTimeFormat();
  const amounts = (
    <>
      <Table.Td ta="right">{money(transaction.billAmount)}</Table.Td>
      <Table.Td ta="right">{money(transaction.tip)}</Table.Td>
      <Table.Td ta="right">{money(transaction.tax)}</Table.Td>
      <Table.Td ta="right" fw={600}>
        {formatMoney(total, currency, locale)}
      </Table.Td>
      <Table.Td ta="right">{formatSats(msatToWholeSats(transaction.totalMsatCharged), locale)}</Table.Td>
    </>
  );
  if (phone) {
    return (
      <>
        <Table.Tr>
          <Table.Td colSpan={5} pb={0} c="dimmed" style={{ borderBottom: 'none' }}>
            {date(transaction.settledAt)}
            <Refunded transaction={transaction} />
          </Table.Td>
        </Table.Tr>
        <Table.Tr>{amounts}</Table.Tr>
      </>
    );
  }
  return (
    <Table.Tr>
      <Table.Td style={{ whiteSpace: 'nowrap' }}>
        {date(transaction.settledAt)}
        <Refunded transaction={transaction} />
      </Table.Td>
      {amounts}
    </Table.Tr>
  );
}

/**
 * The terminal's latest sales, newest first. Through the shared cashier link the server sends
 * only the day's (in the organization's time zone), and the heading says so.
 */
export function LatestTransactions({ source }: { source: TerminalSource }) {
  const { t } = useTranslation();
  const transactions = useLatestTransactions(source);
  const shared = source.kind === 'shared';
  const phone = useMediaQuery(PHONE_QUERY) ?? false;
  // Drawn in a transition, in slices, rather than in one long task as the answer lands (CheckoutPage).
  const sales = useDeferredValue(transactions.data);
  return (
    <section aria-labelledby="latest-transactions">
      <Title order={2} size="h4" mb="sm" id="latest-transactions">
        {t(shared ? 'terminal.latestToday' : 'terminal.latest')}
      </Title>
      {!sales && !transactions.isError && <Loader size="sm" aria-label={t('common.loading')} />}
      {transactions.isError && <Text c="dimmed">{t('terminal.transactionsFailed')}</Text>}
      {sales?.length === 0 && (
        <Text c="dimmed">{t(shared ? 'terminal.noTransactionsToday' : 'terminal.noTransactions')}</Text>
      )}
      {sales && sales.length > 0 && (
        <Table.ScrollContainer minWidth={phone ? 0 : TABLE_MIN_WIDTH_PX}>
          <Table striped={!phone} verticalSpacing="xs" horizontalSpacing={phone ? 2 : 'sm'} fz={phone ? 'xs' : 'sm'}>
            <Table.Thead>
              <Table.Tr>
                {!phone && <Table.Th>{t('terminal.date')}</Table.Th>}
                <Table.Th ta="right">{t('terminal.bill')}</Table.Th>
                <Table.Th ta="right">{t('terminal.tipLine')}</Table.Th>
                <Table.Th ta="right">{t('bpts.tax')}</Table.Th>
                <Table.Th ta="right">{t('terminal.total')}</Table.Th>
                <Table.Th ta="right">{t('terminal.sats')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {sales.map((transaction) => (
                <Row key={transaction.id} transaction={transaction} phone={phone} />
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </section>
  );
}
