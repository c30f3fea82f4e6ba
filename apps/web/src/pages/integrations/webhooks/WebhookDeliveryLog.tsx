import { Badge, Button, Stack, Table, Text, Title } from '@mantine/core';
import type { WebhookDelivery } from '@rayo/shared';
import { useState } from 'react';
import { errorMessage } from '../../../api/error-messages.ts';
import { useRedeliverWebhook, useWebhookDeliveries } from '../../../api/webhooks.ts';
import { useDateTimeFormat } from '../../../components/date-time.ts';
import { notifications } from '../../../components/notifications.ts';
import { PagedList } from '../../../components/PagedList.tsx';
import { useTranslation } from '../../../i18n/index.ts';

const PAGE_SIZE = 10;

type DeliveryState = 'delivered' | 'retrying' | 'pending' | 'failed';

function stateOf(delivery: WebhookDelivery): DeliveryState {
  if (delivery.deliveredAt) return 'delivered';
  if (delivery.attempts === 0) return 'pending';
  return delivery.nextAttemptAt ? 'retrying' : 'failed';
}

const stateColor: Record<DeliveryState, string> = {
  delivered: 'teal',
  retrying: 'yellow',
  pending: 'gray',
  failed: 'red',
};

/** Every event sent to every endpoint, newest first, with how its attempts went. */
export function WebhookDeliveryLog({ admin }: { admin: boolean }) {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const log = useWebhookDeliveries(page, PAGE_SIZE);
  const redeliver = useRedeliverWebhook();
  const date = useDateTimeFormat('dateTimeSeconds');

  const send = (delivery: WebhookDelivery) =>
    redeliver.mutate(delivery.id, {
      onSuccess: () => {
        notifications.show({ color: 'teal', message: t('webhooks.log.redelivering') });
        void log.refetch();
      },
      onError: (error) => notifications.show({ color: 'red', position: 'top-right', message: errorMessage(t, error) }),
    });

  return (
    <Stack gap="sm" component="section" aria-labelledby="webhook-log">
      <Title order={3} size="h5" id="webhook-log">
        {t('webhooks.log.title')}
      </Title>
      <PagedList query={log} pageSize={PAGE_SIZE} page={page} onPage={setPage} empty={t('webhooks.log.empty')}>
        {(data) => (
          <Table.ScrollContainer minWidth={560}>
            <Table verticalSpacing="xs" data-testid="webhook-deliveries">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('webhooks.log.time')}</Table.Th>
                  <Table.Th>{t('webhooks.log.event')}</Table.Th>
                  <Table.Th>{t('webhooks.log.status')}</Table.Th>
                  <Table.Th>{t('webhooks.log.attempts')}</Table.Th>
                  <Table.Th>{t('webhooks.log.lastError')}</Table.Th>
                  {admin && <Table.Th />}
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {data.deliveries.map((delivery) => {
                  const state = stateOf(delivery);
                  return (
                    <Table.Tr key={delivery.id}>
                      <Table.Td style={{ whiteSpace: 'nowrap' }}>
                        <Text size="sm">{date(delivery.createdAt)}</Text>
                      </Table.Td>
                      <Table.Td>
                        <Text size="sm">{delivery.type}</Text>
                        <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                          {delivery.url}
                        </Text>
                      </Table.Td>
                      <Table.Td>
                        <Badge color={stateColor[state]} variant="light">
                          {t(`webhooks.log.states.${state}`)}
                        </Badge>
                        {delivery.lastStatus !== null && (
                          <Text size="xs" c="dimmed">
                            HTTP {delivery.lastStatus}
                          </Text>
                        )}
                        {state === 'retrying' && delivery.nextAttemptAt && (
                          <Text size="xs" c="dimmed">
                            {t('webhooks.log.nextAttempt', { time: date(delivery.nextAttemptAt) })}
                          </Text>
                        )}
                      </Table.Td>
                      <Table.Td>{delivery.attempts}</Table.Td>
                      <Table.Td style={{ overflowWrap: 'anywhere' }}>
                        <Text size="sm" c={delivery.lastError ? undefined : 'dimmed'}>
                          {/* An HTTP answer is put in words here; a network failure is shown as the server logged it. */}
                          {delivery.lastError && delivery.lastStatus !== null
                            ? t('webhooks.log.answered', { status: delivery.lastStatus })
                            : (delivery.lastError ?? '—')}
                        </Text>
                      </Table.Td>
                      {admin && (
                        <Table.Td ta="right">
                          <Button
                            size="xs"
                            variant="subtle"
                            loading={redeliver.isPending && redeliver.variables === delivery.id}
                            onClick={() => send(delivery)}
                          >
                            {t('webhooks.log.redeliver')}
                          </Button>
                        </Table.Td>
                      )}
                    </Table.Tr>
                  );
                })}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </PagedList>
    </Stack>
  );
}
