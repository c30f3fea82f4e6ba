import { Button, EmptyState, Group, Loader, Table, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import type { Account } from '@rayo/shared';
import { IconBuildingBank, IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAccountList, useDeleteAccount } from '../../api/accounts.ts';
import { errorMessage } from '../../api/error-messages.ts';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { EditDeleteActions } from '../../components/EditDeleteActions.tsx';
import { LoadError } from '../../components/LoadError.tsx';
import { canChange } from '../../session/permissions.ts';
import { useSession } from '../../session/use-session.ts';
import { AccountFormModal } from './AccountFormModal.tsx';

/** The form is open for a new account (`null`) or for an existing one. */
type Editing = { account: Account | null } | null;

export function AccountsPage() {
  const { t } = useTranslation();
  const { role } = useSession();
  const editable = canChange(role);
  const accounts = useAccountList();
  const remove = useDeleteAccount();
  const [editing, setEditing] = useState<Editing>(null);
  // The dialog keeps naming its account while it closes, so `deleting` outlives `deleteOpen`.
  const [deleting, setDeleting] = useState<Account | null>(null);
  const [deleteOpen, setDeleteOpen] = useState(false);

  const closeDelete = () => {
    setDeleteOpen(false);
    remove.reset();
  };
  const confirmDelete = () => {
    if (!deleting) return;
    remove.mutate(deleting.id, {
      onSuccess: () => {
        notifications.show({ color: 'teal', message: t('accounts.deleted') });
        closeDelete();
      },
    });
  };
  const createButton = editable && (
    <Button leftSection={<IconPlus size={18} />} onClick={() => setEditing({ account: null })}>
      {t('accounts.new')}
    </Button>
  );

  return (
    <>
      <Group justify="space-between" mb="lg">
        <Title order={1} size="h2">
          {t('nav.accounts')}
        </Title>
        {accounts.data?.length ? createButton : null}
      </Group>
      {!editable && (
        <Text c="dimmed" size="sm" mb="md">
          {t('accounts.viewOnly')}
        </Text>
      )}

      {accounts.isPending && <Loader aria-label={t('common.loading')} />}
      {accounts.isError && <LoadError error={accounts.error} onRetry={() => accounts.refetch()} />}
      {accounts.data?.length === 0 && (
        <EmptyState
          icon={<IconBuildingBank size={32} />}
          variant="light"
          title={t('accounts.emptyTitle')}
          description={t('accounts.emptyText')}
          py="xl"
        >
          {createButton && <EmptyState.Actions>{createButton}</EmptyState.Actions>}
        </EmptyState>
      )}
      {accounts.data && accounts.data.length > 0 && (
        <Table striped highlightOnHover verticalSpacing="sm">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('accounts.name')}</Table.Th>
              <Table.Th>{t('accounts.internalCode')}</Table.Th>
              {editable && <Table.Th w={1}>{t('common.actions')}</Table.Th>}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {accounts.data.map((account) => (
              <Table.Tr key={account.id}>
                <Table.Td fw={500}>{account.name}</Table.Td>
                <Table.Td>
                  {account.internalCode || (
                    <Text span c="dimmed" size="sm">
                      {t('accounts.noCode')}
                    </Text>
                  )}
                </Table.Td>
                {editable && (
                  <Table.Td>
                    <EditDeleteActions
                      editLabel={t('accounts.editLabel', { name: account.name })}
                      deleteLabel={t('accounts.deleteLabel', { name: account.name })}
                      onEdit={() => setEditing({ account })}
                      onDelete={() => {
                        setDeleting(account);
                        setDeleteOpen(true);
                      }}
                    />
                  </Table.Td>
                )}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}

      {editing && <AccountFormModal account={editing.account} onClose={() => setEditing(null)} />}
      <ConfirmDialog
        opened={deleteOpen}
        title={t('accounts.deleteTitle')}
        message={t('accounts.deleteText', { name: deleting?.name })}
        confirmLabel={t('common.delete')}
        loading={remove.isPending}
        error={remove.error ? errorMessage(t, remove.error) : null}
        onConfirm={confirmDelete}
        onClose={closeDelete}
      />
    </>
  );
}
