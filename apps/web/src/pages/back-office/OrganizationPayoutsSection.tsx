import { ActionIcon, Paper, Stack, Text, Title, Tooltip } from '@mantine/core';
import { OPEN_PAYOUT_STATES, type Payout } from '@rayo/shared';
import { IconX } from '@tabler/icons-react';
import { useState } from 'react';
import { useCancelPayout, useOrganizationPayouts } from '../../api/back-office-payouts.ts';
import { errorMessage } from '../../api/error-messages.ts';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { useDateTimeFormat } from '../../components/date-time.ts';
import { useFormatLocale } from '../../components/format-locale.ts';
import { formatMsatAsSats } from '../../components/money-format.ts';
import { notifications } from '../../components/notifications.ts';
import { PagedList } from '../../components/PagedList.tsx';
import { useTranslation } from '../../i18n/index.ts';
import { PayoutsTable } from '../settings/PayoutsTable.tsx';

const PAGE_SIZE = 10;

/** Only a Lightning payout still pending or failed can be cancelled; the server has the last word. */
function mayCancel(payout: Payout): boolean {
  return payout.kind === 'lightning' && OPEN_PAYOUT_STATES.includes(payout.state);
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
        <PagedList query={payouts} pageSize={PAGE_SIZE} page={page} onPage={setPage} empty={t('payouts.empty')}>
          {(data) => (
            <PayoutsTable
              payouts={data.payouts}
              actions={(payout) =>
                mayCancel(payout) && (
                  // An icon keeps the row within the panel; the tooltip and the label name it.
                  <Tooltip label={t('backOffice.payouts.cancel')} withArrow>
                    <ActionIcon
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
                      <IconX size={16} />
                    </ActionIcon>
                  </Tooltip>
                )
              }
            />
          )}
        </PagedList>
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
