import { Badge, Code, Table, Text, VisuallyHidden } from '@mantine/core';
import type { Payout } from '@rayo/shared';
import type { ReactNode } from 'react';
import { useDateTimeFormat } from '../../components/date-time.ts';
import { useFormatLocale } from '../../components/format-locale.ts';
import { formatMsatAsSats } from '../../components/money-format.ts';
import { useTranslation } from '../../i18n/index.ts';

const STATE_COLORS: Record<Payout['state'], string> = {
  pending: 'blue',
  sent: 'teal',
  failed: 'orange',
  cancelled: 'gray',
};

/** The start and end of a long hash, so a row stays readable; the whole one is in the title. */
function shorten(text: string): string {
  return text.length > 20 ? `${text.slice(0, 10)}…${text.slice(-8)}` : text;
}

/**
 * A page of an organization's payouts, as the merchant and back office both see them: when and
 * how, where to, how much and at what fee, how far it got, and its payment hash or txid;
 * `actions` adds a last column of what may be done with each.
 */
export function PayoutsTable({
  payouts,
  actions,
}: {
  payouts: readonly Payout[];
  actions?: (payout: Payout) => ReactNode;
}) {
  const { t } = useTranslation();
  const locale = useFormatLocale();
  const date = useDateTimeFormat();
  return (
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
            {actions && (
              <Table.Th>
                <VisuallyHidden>{t('common.actions')}</VisuallyHidden>
              </Table.Th>
            )}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {payouts.map((payout) => {
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
                <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatMsatAsSats(payout.amountMsat, locale)}</Table.Td>
                <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatMsatAsSats(payout.feeMsat, locale)}</Table.Td>
                <Table.Td>
                  <Badge color={STATE_COLORS[payout.state]} variant="light">
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
                {actions && <Table.Td>{actions(payout)}</Table.Td>}
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
