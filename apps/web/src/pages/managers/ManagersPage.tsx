import { Badge, Button, EmptyState, Group, Loader, Table, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import type { Manager } from '@rayo/shared';
import { IconPlus, IconUsers } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAccounts } from '../../api/catalog.ts';
import { errorMessage } from '../../api/error-messages.ts';
import { useDeleteManager, useManagerList } from '../../api/managers.ts';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { EditDeleteActions } from '../../components/EditDeleteActions.tsx';
import { LoadError } from '../../components/LoadError.tsx';
import { ManagerFormModal } from './ManagerFormModal.tsx';

/** The form is open for a new manager (`null`) or for an existing one. */
type Editing = { manager: Manager | null } | null;

/** Admins only (the route's sidebar entry is theirs): who may view which accounts (SPEC §6). */
export function ManagersPage() {
  const { t } = useTranslation();
  const managers = useManagerList();
  const accounts = useAccounts();
  const remove = useDeleteManager();
  const [editing, setEditing] = useState<Editing>(null);
  // The dialog keeps naming its manager while it closes, so `deleting` outlives `deleteOpen`.
  const [deleting, setDeleting] = useState<Manager | null>(null);
  const [deleteOpen, setDeleteOpen] = useState(false);
  const accountNames = new Map((accounts.data ?? []).map((account) => [account.id, account.name]));

  const closeDelete = () => {
    setDeleteOpen(false);
    remove.reset();
  };
  const confirmDelete = () => {
    if (!deleting) return;
    remove.mutate(deleting.id, {
      onSuccess: () => {
        notifications.show({ color: 'teal', message: t('managers.deleted') });
        closeDelete();
      },
    });
  };
  const createButton = (
    <Button leftSection={<IconPlus size={18} />} onClick={() => setEditing({ manager: null })}>
      {t('managers.new')}
    </Button>
  );

  return (
    <>
      <Group justify="space-between" mb="lg">
        <Title order={1} size="h2">
          {t('nav.managers')}
        </Title>
        {managers.data?.length ? createButton : null}
      </Group>
      <Text c="dimmed" size="sm" mb="md">
        {t('managers.intro')}
      </Text>

      {managers.isPending && <Loader aria-label={t('common.loading')} />}
      {managers.isError && <LoadError error={managers.error} onRetry={() => managers.refetch()} />}
      {managers.data?.length === 0 && (
        <EmptyState
          icon={<IconUsers size={32} />}
          variant="light"
          title={t('managers.emptyTitle')}
          description={t('managers.emptyText')}
          py="xl"
        >
          <EmptyState.Actions>{createButton}</EmptyState.Actions>
        </EmptyState>
      )}
      {managers.data && managers.data.length > 0 && (
        <Table.ScrollContainer minWidth={340}>
          <Table striped highlightOnHover verticalSpacing="sm">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('managers.name')}</Table.Th>
                <Table.Th visibleFrom="sm">{t('managers.email')}</Table.Th>
                <Table.Th>{t('managers.accounts')}</Table.Th>
                <Table.Th w={1}>{t('common.actions')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {managers.data.map((manager) => (
                <Table.Tr key={manager.id}>
                  <Table.Td>
                    <Text fw={500}>{manager.name}</Text>
                    {/* On a phone the email rides under the name, so the actions stay in view. */}
                    <Text size="sm" c="dimmed" hiddenFrom="sm" style={{ overflowWrap: 'anywhere' }}>
                      {manager.email}
                    </Text>
                  </Table.Td>
                  <Table.Td visibleFrom="sm">{manager.email}</Table.Td>
                  <Table.Td>
                    {manager.accountIds.length ? (
                      <Group gap={4}>
                        {manager.accountIds.map((id) => (
                          <Badge key={id} variant="light" tt="none">
                            {accountNames.get(id) ?? '…'}
                          </Badge>
                        ))}
                      </Group>
                    ) : (
                      <Text span c="dimmed" size="sm">
                        {t('managers.noAccounts')}
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td>
                    <EditDeleteActions
                      editLabel={t('managers.editLabel', { name: manager.name })}
                      deleteLabel={t('managers.deleteLabel', { name: manager.name })}
                      onEdit={() => setEditing({ manager })}
                      onDelete={() => {
                        setDeleting(manager);
                        setDeleteOpen(true);
                      }}
                    />
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}

      {editing && <ManagerFormModal manager={editing.manager} onClose={() => setEditing(null)} />}
      <ConfirmDialog
        opened={deleteOpen}
        title={t('managers.deleteTitle')}
        message={t('managers.deleteText', { name: deleting?.name })}
        confirmLabel={t('common.delete')}
        loading={remove.isPending}
        error={remove.error ? errorMessage(t, remove.error) : null}
        onConfirm={confirmDelete}
        onClose={closeDelete}
      />
    </>
  );
}
