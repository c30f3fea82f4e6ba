import { Badge, Button, Group, Table, Text, Title } from '@mantine/core';
import type { Manager } from '@rayo/shared';
import { IconPlus, IconUsers } from '@tabler/icons-react';
import { useState } from 'react';
import { useAccounts } from '../../api/catalog.ts';
import { useDeleteManager, useManagerList } from '../../api/managers.ts';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { EditDeleteActions } from '../../components/EditDeleteActions.tsx';
import { ListStatus } from '../../components/ListStatus.tsx';
import { useDeleteConfirmation } from '../../components/use-delete-confirmation.ts';
import { useTranslation } from '../../i18n/index.ts';
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
  const accountNames = new Map((accounts.data ?? []).map((account) => [account.id, account.name]));
  const confirmation = useDeleteConfirmation<Manager>(remove, t('managers.deleted'));
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

      <ListStatus
        query={managers}
        empty={{ icon: <IconUsers size={32} />, title: t('managers.emptyTitle'), text: t('managers.emptyText') }}
        action={createButton}
      />
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
                      onDelete={() => confirmation.ask(manager)}
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
        {...confirmation.dialog}
        title={t('managers.deleteTitle')}
        message={t('managers.deleteText', { name: confirmation.target?.name })}
        confirmLabel={t('common.delete')}
      />
    </>
  );
}
