import { Button, Group, Table, Text, Title } from '@mantine/core';
import type { Account } from '@rayo/shared';
import { canChangeOrganization } from '@rayo/shared';
import { IconBuildingBank, IconLink, IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { useAccountList, useDeleteAccount } from '../../api/accounts.ts';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { EditDeleteActions } from '../../components/EditDeleteActions.tsx';
import { ListStatus } from '../../components/ListStatus.tsx';
import { useDeleteConfirmation } from '../../components/use-delete-confirmation.ts';
import { useTranslation } from '../../i18n/index.ts';
import { useSession } from '../../session/use-session.ts';
import { AccountFormModal } from './AccountFormModal.tsx';

/** The form is open for a new account (`null`) or for an existing one. */
type Editing = { account: Account | null } | null;

export function AccountsPage() {
  const { t } = useTranslation();
  const { role } = useSession();
  const editable = canChangeOrganization(role);
  const accounts = useAccountList();
  const remove = useDeleteAccount();
  const [editing, setEditing] = useState<Editing>(null);
  const confirmation = useDeleteConfirmation<Account>(remove, t('accounts.deleted'));
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

      <ListStatus
        query={accounts}
        empty={{ icon: <IconBuildingBank size={32} />, title: t('accounts.emptyTitle'), text: t('accounts.emptyText') }}
        action={createButton}
      />
      {accounts.data && accounts.data.length > 0 && (
        <Table striped highlightOnHover verticalSpacing="sm">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('accounts.name')}</Table.Th>
              <Table.Th>{t('accounts.internalCode')}</Table.Th>
              <Table.Th w={1}>{t('common.actions')}</Table.Th>
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
                <Table.Td>
                  <Group gap="xs" wrap="nowrap">
                    <Button
                      component={Link}
                      to={`/accounts/${encodeURIComponent(account.id)}/links`}
                      variant="light"
                      size="xs"
                      leftSection={<IconLink size={16} />}
                      aria-label={t('accounts.paymentLinksLabel', { name: account.name })}
                    >
                      {t('accounts.paymentLinks')}
                    </Button>
                    {editable && (
                      <EditDeleteActions
                        editLabel={t('accounts.editLabel', { name: account.name })}
                        deleteLabel={t('accounts.deleteLabel', { name: account.name })}
                        onEdit={() => setEditing({ account })}
                        onDelete={() => confirmation.ask(account)}
                      />
                    )}
                  </Group>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}

      {editing && <AccountFormModal account={editing.account} onClose={() => setEditing(null)} />}
      <ConfirmDialog
        {...confirmation.dialog}
        title={t('accounts.deleteTitle')}
        message={t('accounts.deleteText', { name: confirmation.target?.name })}
        confirmLabel={t('common.delete')}
      />
    </>
  );
}
