import { ActionIcon, Button, Group, Stack, Table, Text } from '@mantine/core';
import { type BackOfficeNotification, NOTIFICATION_KINDS } from '@rayo/shared';
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
/** How long a deleted notice can be brought back: it is deleted on the server only after this. */
const UNDO_MS = 6000;

/** The i18n key naming a notice's kind; a kind this build does not know reads as 'Other notice'. */
export function notificationKindKey(kind: string): string {
  return (NOTIFICATION_KINDS as readonly string[]).includes(kind)
    ? `backOffice.notifications.kinds.${kind}`
    : 'backOffice.notifications.kinds.other';
}

/**
 * What merchants changed that back office should look at, newest first; each is deleted once seen
 * to. A deleted notice leaves the list at once, and a message names it with an undo button; the
 * server deletes it only when that message goes, since a delete cannot be taken back there.
 */
export function NotificationsPanel() {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const list = useBackOfficeNotifications(page, PAGE_SIZE);
  const remove = useDeleteNotification();
  const date = useDateTimeFormat();
  const [hidden, setHidden] = useState<ReadonlySet<string>>(new Set());
  const show = (id: string) =>
    setHidden((current) => {
      const left = new Set(current);
      left.delete(id);
      return left;
    });

  const deleteWithUndo = (notice: BackOfficeNotification) => {
    setHidden((current) => new Set(current).add(notice.id));
    const toastId = `notification-deleted-${notice.id}`;
    const timer = setTimeout(() => {
      toasts.hide(toastId);
      remove.mutate(notice.id, {
        onError: (error) => {
          show(notice.id);
          toasts.show({ color: 'red', message: errorMessage(t, error) });
        },
      });
    }, UNDO_MS);
    const undo = () => {
      clearTimeout(timer);
      toasts.hide(toastId);
      show(notice.id);
    };
    toasts.show({
      id: toastId,
      autoClose: UNDO_MS,
      withCloseButton: false,
      message: (
        <Group justify="space-between" wrap="nowrap" gap="sm">
          <Text size="sm" style={{ flex: 1 }}>
            {t('backOffice.notifications.deleted', {
              kind: t(notificationKindKey(notice.kind)),
              organization: notice.organizationName,
            })}
          </Text>
          <Button size="compact-sm" variant="light" onClick={undo} style={{ flexShrink: 0 }}>
            {t('backOffice.notifications.undo')}
          </Button>
        </Group>
      ),
    });
  };

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
          // No minimum width, and on a phone the time under the organization rather than in a
          // column of its own: the table fits, so focusing a delete button does not scroll it sideways.
          <Table verticalSpacing="xs" data-testid="back-office-notifications">
            <Table.Thead>
              <Table.Tr>
                <Table.Th visibleFrom="sm">{t('backOffice.notifications.time')}</Table.Th>
                <Table.Th>{t('backOffice.notifications.organization')}</Table.Th>
                <Table.Th>{t('backOffice.notifications.kind')}</Table.Th>
                <Table.Th />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {data.notifications
                .filter((notice) => !hidden.has(notice.id))
                .map((notice) => (
                  <Table.Tr key={notice.id}>
                    <Table.Td visibleFrom="sm" style={{ whiteSpace: 'nowrap' }}>
                      {date(notice.createdAt)}
                    </Table.Td>
                    <Table.Td>
                      <Link to={`/back-office/${notice.organizationId}/infos`}>{notice.organizationName}</Link>
                      <Text size="xs" c="dimmed" hiddenFrom="sm">
                        {date(notice.createdAt)}
                      </Text>
                    </Table.Td>
                    <Table.Td>{t(notificationKindKey(notice.kind))}</Table.Td>
                    <Table.Td>
                      <ActionIcon
                        variant="subtle"
                        color="red"
                        aria-label={t('backOffice.notifications.delete')}
                        onClick={() => deleteWithUndo(notice)}
                      >
                        <IconTrash size={16} />
                      </ActionIcon>
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
