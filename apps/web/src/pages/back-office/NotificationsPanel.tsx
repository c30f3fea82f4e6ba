import { ActionIcon, Stack, Table } from '@mantine/core';
import { NOTIFICATION_KINDS } from '@rayo/shared';
import { IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { useBackOfficeNotifications, useDeleteNotification } from '../../api/back-office.ts';
import { errorMessage } from '../../api/error-messages.ts';
import { useDateTimeFormat } from '../../components/date-time.ts';
import { notifications as toasts } from '../../components/notifications.ts';
import { PagedList } from '../../components/PagedList.tsx';
import { useTranslation } from '../../i18n/index.ts';

const PAGE_SIZE = 20;

/** The i18n key naming a notice's kind; a kind this build does not know reads as 'Other notice'. */
export function notificationKindKey(kind: string): string {
  return (NOTIFICATION_KINDS as readonly string[]).includes(kind)
    ? `backOffice.notifications.kinds.${kind}`
    : 'backOffice.notifications.kinds.other';
}

/** What merchants changed that back office should look at, newest first; each is deleted once seen to. */
export function NotificationsPanel() {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const list = useBackOfficeNotifications(page, PAGE_SIZE);
  const remove = useDeleteNotification();
  const date = useDateTimeFormat();

  return (
    <Stack gap="sm">
      <PagedList
        query={list}
        pageSize={PAGE_SIZE}
        page={page}
        onPage={setPage}
        empty={t('backOffice.notifications.empty')}
      >
        {(data) => (
          <Table.ScrollContainer minWidth={480}>
            <Table verticalSpacing="xs" data-testid="back-office-notifications">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('backOffice.notifications.time')}</Table.Th>
                  <Table.Th>{t('backOffice.notifications.organization')}</Table.Th>
                  <Table.Th>{t('backOffice.notifications.kind')}</Table.Th>
                  <Table.Th />
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {data.notifications.map((notice) => (
                  <Table.Tr key={notice.id}>
                    <Table.Td style={{ whiteSpace: 'nowrap' }}>{date(notice.createdAt)}</Table.Td>
                    <Table.Td>
                      <Link to={`/back-office/${notice.organizationId}/infos`}>{notice.organizationName}</Link>
                    </Table.Td>
                    <Table.Td>{t(notificationKindKey(notice.kind))}</Table.Td>
                    <Table.Td>
                      <ActionIcon
                        variant="subtle"
                        color="red"
                        aria-label={t('backOffice.notifications.delete')}
                        loading={remove.isPending && remove.variables === notice.id}
                        onClick={() =>
                          remove.mutate(notice.id, {
                            onError: (error) => toasts.show({ color: 'red', message: errorMessage(t, error) }),
                          })
                        }
                      >
                        <IconTrash size={16} />
                      </ActionIcon>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </PagedList>
    </Stack>
  );
}
