import { Stack, Table, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useDonationHistory } from '../../../api/donations.ts';
import { useDateTimeFormat } from '../../../components/date-time.ts';
import { useFormatLocale } from '../../../components/format-locale.ts';
import { formatDecimalMoney, formatMsatAsSats } from '../../../components/money-format.ts';
import { PagedList } from '../../../components/PagedList.tsx';
import { useTranslation } from '../../../i18n/index.ts';

const PAGE_SIZE = 10;

/** The donations received (SPEC §2 "donations via LNURL-Pay with history"), newest first, a page at a time. */
export function DonationHistory() {
  const { t } = useTranslation();
  const locale = useFormatLocale();
  const [page, setPage] = useState(1);
  const history = useDonationHistory(page, PAGE_SIZE);
  const date = useDateTimeFormat();

  return (
    <Stack gap="sm" component="section" aria-labelledby="donation-history">
      <Title order={3} size="h5" id="donation-history">
        {t('donations.history.title')}
      </Title>
      <PagedList query={history} pageSize={PAGE_SIZE} page={page} onPage={setPage} empty={t('donations.history.empty')}>
        {(data) => (
          <Table verticalSpacing="xs" data-testid="donation-history">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('donations.history.date')}</Table.Th>
                <Table.Th>{t('donations.history.amount')}</Table.Th>
                <Table.Th>{t('donations.history.comment')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {data.items.map((donation) => (
                <Table.Tr key={donation.id}>
                  <Table.Td>
                    <Text size="sm">{date(donation.receivedAt)}</Text>
                    <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                      {donation.title}
                    </Text>
                  </Table.Td>
                  <Table.Td style={{ whiteSpace: 'nowrap' }}>
                    <Text size="sm">{formatMsatAsSats(donation.amountMsat, locale)}</Text>
                    <Text size="xs" c="dimmed">
                      {formatDecimalMoney(donation.fiatAmount, donation.currency, locale)}
                    </Text>
                  </Table.Td>
                  <Table.Td style={{ overflowWrap: 'anywhere' }}>
                    {donation.comment ?? (
                      <Text size="sm" c="dimmed" span>
                        {t('donations.history.noComment')}
                      </Text>
                    )}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </PagedList>
    </Stack>
  );
}
