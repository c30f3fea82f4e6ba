import { Badge, Button, Code, Paper, Stack, Table, Text, Title, VisuallyHidden } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import type { Payout } from '@rayo/shared';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCancelPayout, useOrganizationPayouts } from '../../api/back-office-payouts.ts';
import { errorMessage } from '../../api/error-messages.ts';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { useDateTimeFormat } from '../../components/date-time.ts';
import { useFormatLocale } from '../../components/format-locale.ts';
import { LabelledPagination } from '../../components/LabelledPagination.tsx';
import { LoadError } from '../../components/LoadError.tsx';
import { formatMsatAsSats } from '../../components/money-format.ts';
import { PAYOUT_STATE_COLORS, shorten } from '../settings/PayoutHistorySection.tsx';

const PAGE_SIZE = 10;

/** Only a Lightning payout still pending or failed can be cancelled; the server has the last word. */
function mayCancel(payout: Payout): boolean {
  return payout.kind === 'lightning' && (payout.state === 'pending' || payout.state === 'failed');
}

/**
 * Back office, an organization's transactions tab: its payouts, newest first, and Cancel for a
 * pending or failed one after a confirmation. The shares of a cancelled payout are paid again by
 * the next batch; a payout whose payment may still complete is refused with the reason.
 */
export function OrganizationPayoutsSection({ organizationId }: { organizationId: string }) {
  const { t } = useTranslation();
  const locale = useFormatLocale();
  const date = useDateTimeFormat();
  const [page, setPage] = useState(1);
  const payouts = useOrganizationPayouts(organizationId, page, PAGE_SIZE);
  const cancel = useCancelPayout();
  const [confirming, setConfirming] = useState<Payout | null>(null);
  const pages = Math.max(1, Math.ceil((payouts.data?.total ?? 0) / PAGE_SIZE));

  const confirmCancel = () => {
    if (!confirming) return;
    cancel.mutate(confirming.id, {
      onSuccess: () => {
        setConfirming(null);
        notifications.show({ color: 'teal', message: t('backOffice.payouts.cancelled') });
      },
    });
  };

  return (
    <Paper withBorder radius="md" p="md" mt="lg" component="section" aria-labelledby="organization-payouts">
      <Stack gap="sm">
        <div>
          <Title order={2} size="h4" id="organization-payouts">
            {t('payouts.title')}
          </Title>
          <Text c="dimmed" size="sm" mt={4}>
            {t('backOffice.payouts.description')}
          </Text>
        </div>
        {payouts.isError && <LoadError error={payouts.error} onRetry={() => payouts.refetch()} />}
        {payouts.isPending && <Text size="sm">{t('common.loading')}</Text>}
        {payouts.data && payouts.data.total === 0 && (
          <Text size="sm" c="dimmed">
            {t('payouts.empty')}
          </Text>
        )}
        {payouts.data && payouts.data.payouts.length > 0 && (
          <Table.ScrollContainer minWidth={640}>
            <Table verticalSpacing="xs" data-testid="organization-payouts">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('payouts.date')}</Table.Th>
                  <Table.Th>{t('payouts.destination')}</Table.Th>
                  <Table.Th>{t('payouts.amount')}</Table.Th>
                  <Table.Th>{t('payouts.state')}</Table.Th>
                  <Table.Th>{t('payouts.reference')}</Table.Th>
                  <Table.Th>
                    <VisuallyHidden>{t('common.actions')}</VisuallyHidden>
                  </Table.Th>
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
                        <Text size="sm">{payout.destination}</Text>
                      </Table.Td>
                      <Table.Td style={{ whiteSpace: 'nowrap' }}>
                        {formatMsatAsSats(payout.amountMsat, locale)}
                      </Table.Td>
                      <Table.Td>
                        <Badge color={PAYOUT_STATE_COLORS[payout.state]} variant="light">
                          {t(`payouts.states.${payout.state}`)}
                        </Badge>
                        {payout.state === 'failed' && (
                          <Text size="xs" c="dimmed" mt={2}>
                            {t('payouts.attempts', { count: payout.attempts })}
                          </Text>
                        )}
                      </Table.Td>
                      <Table.Td style={{ whiteSpace: 'nowrap' }}>
                        {reference ? <Code title={reference}>{shorten(reference)}</Code> : '—'}
                      </Table.Td>
                      <Table.Td>
                        {mayCancel(payout) && (
                          <Button
                            size="xs"
                            variant="light"
                            color="red"
                            aria-label={t('backOffice.payouts.cancelOne', {
                              amount: formatMsatAsSats(payout.amountMsat, locale),
                              date: date(payout.createdAt),
                            })}
                            onClick={() => {
                              cancel.reset();
                              setConfirming(payout);
                            }}
                          >
                            {t('backOffice.payouts.cancel')}
                          </Button>
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
      <ConfirmDialog
        opened={confirming !== null}
        title={t('backOffice.payouts.confirmTitle')}
        message={
          confirming
            ? t('backOffice.payouts.confirm', {
                amount: formatMsatAsSats(confirming.amountMsat, locale),
                destination: confirming.destination,
              })
            : ''
        }
        confirmLabel={t('backOffice.payouts.cancel')}
        loading={cancel.isPending}
        error={cancel.isError ? errorMessage(t, cancel.error) : null}
        onConfirm={confirmCancel}
        onClose={() => setConfirming(null)}
      />
    </Paper>
  );
}
