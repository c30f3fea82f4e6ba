import { Badge, Code, Paper, Stack, Table, Text, Title } from '@mantine/core';
import type { Payout } from '@rayo/shared';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { usePayouts } from '../../api/payouts.ts';
import { useDateTimeFormat } from '../../components/date-time.ts';
import { useFormatLocale } from '../../components/format-locale.ts';
import { LabelledPagination } from '../../components/LabelledPagination.tsx';
import { LoadError } from '../../components/LoadError.tsx';
import { formatMoney, formatMsatAsSats } from '../../components/money-format.ts';

const PAGE_SIZE = 10;

export const PAYOUT_STATE_COLORS: Record<Payout['state'], string> = {
  pending: 'blue',
  sent: 'teal',
  failed: 'orange',
  cancelled: 'gray',
};

/** The start and end of a long hash, so a row stays readable; the whole one is in the title. */
export function shorten(text: string): string {
  return text.length > 20 ? `${text.slice(0, 10)}…${text.slice(-8)}` : text;
}

/**
 * Settings → Payouts (DESIGN §4): what was sent to the organization's Lightning address (with
 * the routing fee and the payment hash) and to its on-chain address (with the txid and how deep
 * the chain has it), newest first; and its fiat share, which waits for the bank transfer back
 * office marks paid.
 */
export function PayoutHistorySection() {
  const { t } = useTranslation();
  const locale = useFormatLocale();
  const [page, setPage] = useState(1);
  const payouts = usePayouts(page, PAGE_SIZE);
  const date = useDateTimeFormat();
  const pages = Math.max(1, Math.ceil((payouts.data?.total ?? 0) / PAGE_SIZE));

  return (
    <Paper withBorder p={{ base: 'md', sm: 'xl' }} component="section" aria-labelledby="settings-payouts">
      <Stack gap="md">
        <div>
          <Title order={2} size="h4" id="settings-payouts">
            {t('payouts.title')}
          </Title>
          <Text c="dimmed" size="sm" mt={4}>
            {t('payouts.description')}
          </Text>
        </div>
        {payouts.isError && <LoadError error={payouts.error} onRetry={() => payouts.refetch()} />}
        {payouts.isPending && <Text size="sm">{t('common.loading')}</Text>}
        {payouts.data && payouts.data.fiat.length > 0 && (
          <Stack gap={4} data-testid="payouts-fiat">
            {payouts.data.fiat.map((share) => (
              <Text size="sm" key={share.currency}>
                {t('payouts.fiat', {
                  awaiting: formatMoney(BigInt(share.awaitingMinor), share.currency, locale),
                  paid: formatMoney(BigInt(share.paidMinor), share.currency, locale),
                })}
              </Text>
            ))}
          </Stack>
        )}
        {payouts.data && payouts.data.total === 0 && (
          <Text size="sm" c="dimmed">
            {t('payouts.empty')}
          </Text>
        )}
        {payouts.data && payouts.data.payouts.length > 0 && (
          <Table.ScrollContainer minWidth={640}>
            <Table verticalSpacing="xs" data-testid="payouts-table">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('payouts.date')}</Table.Th>
                  <Table.Th>{t('payouts.destination')}</Table.Th>
                  <Table.Th>{t('payouts.amount')}</Table.Th>
                  <Table.Th>{t('payouts.fee')}</Table.Th>
                  <Table.Th>{t('payouts.state')}</Table.Th>
                  <Table.Th>{t('payouts.reference')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {payouts.data.payouts.map((payout) => {
                  const reference = payout.txid ?? payout.paymentHash;
                  return (
                    <Table.Tr key={payout.id}>
                      <Table.Td style={{ whiteSpace: 'nowrap' }}>
                        <Text size="sm">{date(payout.createdAt)}</Text>
                        <Text size="xs" c="dimmed">
                          {t(`payouts.kinds.${payout.kind}`)}
                        </Text>
                      </Table.Td>
                      <Table.Td style={{ whiteSpace: 'nowrap' }}>
                        {/* A Bitcoin address is as long as a txid: shortened alike, so the txid stays in view. */}
                        <Text size="sm" title={payout.destination}>
                          {payout.kind === 'onchain' ? shorten(payout.destination) : payout.destination}
                        </Text>
                      </Table.Td>
                      <Table.Td style={{ whiteSpace: 'nowrap' }}>
                        {formatMsatAsSats(payout.amountMsat, locale)}
                      </Table.Td>
                      <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatMsatAsSats(payout.feeMsat, locale)}</Table.Td>
                      <Table.Td>
                        <Badge color={PAYOUT_STATE_COLORS[payout.state]} variant="light">
                          {t(`payouts.states.${payout.state}`)}
                        </Badge>
                        {payout.state === 'failed' && (
                          <Text size="xs" c="dimmed" mt={2}>
                            {t('payouts.attempts', { count: payout.attempts })}
                          </Text>
                        )}
                        {payout.state === 'sent' && payout.confirmations !== null && (
                          <Text size="xs" c="dimmed" mt={2}>
                            {t('payouts.confirmations', { count: payout.confirmations })}
                          </Text>
                        )}
                      </Table.Td>
                      <Table.Td style={{ whiteSpace: 'nowrap' }}>
                        {reference ? (
                          <Code title={reference}>{shorten(reference)}</Code>
                        ) : (
                          <Text size="sm" c="dimmed">
                            —
                          </Text>
                        )}
                      </Table.Td>
                    </Table.Tr>
                  );
                })}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
        <LabelledPagination pages={pages} page={page} onChange={setPage} />
      </Stack>
    </Paper>
  );
}
