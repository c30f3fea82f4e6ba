import { Alert, Anchor, Button, Group, Paper, Select, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import type { VirtualBpt } from '@rayo/shared';
import { canChangeOrganization } from '@rayo/shared';
import { IconDeviceDesktop, IconLink, IconTrash } from '@tabler/icons-react';
import { type FormEvent, useState } from 'react';
import { Link } from 'react-router';
import { useBpts } from '../../api/bpts.ts';
import { errorMessage } from '../../api/error-messages.ts';
import { useCreateVirtualBpt, useDeleteVirtualBpt, useVirtualBpts } from '../../api/virtual-bpts.ts';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { ListStatus } from '../../components/ListStatus.tsx';
import { notifications } from '../../components/notifications.ts';
import { useDeleteConfirmation } from '../../components/use-delete-confirmation.ts';
import { useTranslation } from '../../i18n/index.ts';
import { useSession } from '../../session/use-session.ts';

/**
 * Integrations → virtual BPTs (SPEC §3: name, linked BPT): each sells online for one of the
 * organization's BPTs, whose account takes its sales, and has its payment links. Admins add and
 * delete them; managers see those of their linked accounts.
 */
export function VirtualBptSection() {
  const { t } = useTranslation();
  const editable = canChangeOrganization(useSession().role);
  const virtualBpts = useVirtualBpts();
  const remove = useDeleteVirtualBpt();
  const confirmation = useDeleteConfirmation<VirtualBpt>(remove, t('virtualBpts.deleted'));

  return (
    <Paper withBorder p={{ base: 'md', sm: 'xl' }} component="section" aria-labelledby="integrations-virtual-bpts">
      <Stack gap="md">
        <div>
          <Title order={2} size="h4" id="integrations-virtual-bpts">
            {t('virtualBpts.title')}
          </Title>
          <Text size="sm" c="dimmed" mt={4}>
            {t('virtualBpts.intro')}
          </Text>
        </div>
        <ListStatus
          query={virtualBpts}
          empty={{
            icon: <IconDeviceDesktop size={32} />,
            title: t('virtualBpts.emptyTitle'),
            text: t('virtualBpts.emptyText'),
          }}
        />
        {virtualBpts.data && virtualBpts.data.length > 0 && (
          <Table.ScrollContainer minWidth={320}>
            <Table verticalSpacing="sm">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('virtualBpts.name')}</Table.Th>
                  <Table.Th visibleFrom="sm">{t('virtualBpts.bpt')}</Table.Th>
                  <Table.Th w={1}>{t('common.actions')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {virtualBpts.data.map((virtualBpt) => (
                  <Table.Tr key={virtualBpt.id}>
                    <Table.Td>
                      <Text fw={500} style={{ overflowWrap: 'anywhere' }}>
                        {virtualBpt.name}
                      </Text>
                      <Text size="xs" c="dimmed" hiddenFrom="sm">
                        {virtualBpt.bptName} · {virtualBpt.accountName}
                      </Text>
                    </Table.Td>
                    <Table.Td visibleFrom="sm">
                      {virtualBpt.bptName}
                      <Text size="xs" c="dimmed">
                        {virtualBpt.accountName} · {virtualBpt.currency}
                      </Text>
                    </Table.Td>
                    <Table.Td>
                      <Group gap="xs" wrap="nowrap">
                        <Button
                          component={Link}
                          to={`/integrations/payment-links/${encodeURIComponent(virtualBpt.id)}`}
                          variant="light"
                          size="xs"
                          leftSection={<IconLink size={16} />}
                        >
                          {t('virtualBpts.paymentLinks')}
                        </Button>
                        {editable && (
                          <Button
                            variant="subtle"
                            color="red"
                            size="xs"
                            px={6}
                            aria-label={t('virtualBpts.deleteLabel', { name: virtualBpt.name })}
                            onClick={() => confirmation.ask(virtualBpt)}
                          >
                            <IconTrash size={16} />
                          </Button>
                        )}
                      </Group>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
        {editable ? (
          <CreateVirtualBptForm />
        ) : (
          <Text size="sm" c="dimmed">
            {t('virtualBpts.viewOnly')}
          </Text>
        )}
      </Stack>
      <ConfirmDialog
        {...confirmation.dialog}
        title={t('virtualBpts.deleteTitle')}
        message={t('virtualBpts.deleteText', { name: confirmation.target?.name })}
        confirmLabel={t('common.delete')}
      />
    </Paper>
  );
}

/** Name and linked BPT; with no BPT yet, SPEC §5's rule and the way to the BPTs screen instead. */
function CreateVirtualBptForm() {
  const { t } = useTranslation();
  const bpts = useBpts();
  const create = useCreateVirtualBpt();
  const [name, setName] = useState('');
  const [bptId, setBptId] = useState<string | null>(null);

  if (bpts.isPending) return null;
  if (bpts.data?.length === 0) {
    return (
      <Alert color="yellow" variant="light">
        <Group justify="space-between" gap="xs">
          <Text size="sm">{t('errors.bptRequired')}</Text>
          <Anchor component={Link} to="/bpts" size="sm">
            {t('virtualBpts.goToBpts')}
          </Anchor>
        </Group>
      </Alert>
    );
  }

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!bptId || !name.trim()) return;
    create.mutate(
      { name: name.trim(), bptId },
      {
        onSuccess: () => {
          setName('');
          setBptId(null);
          notifications.show({ color: 'teal', message: t('virtualBpts.created') });
        },
      },
    );
  };

  return (
    <form onSubmit={submit} aria-label={t('virtualBpts.new')}>
      <Stack gap="sm">
        <Group align="flex-end" gap="sm" grow preventGrowOverflow={false}>
          <TextInput
            label={t('virtualBpts.name')}
            placeholder={t('virtualBpts.namePlaceholder')}
            value={name}
            onChange={(event) => setName(event.currentTarget.value)}
            maxLength={100}
            required
          />
          <Select
            label={t('virtualBpts.bpt')}
            placeholder={t('virtualBpts.bptPlaceholder')}
            data={(bpts.data ?? []).map((bpt) => ({ value: bpt.id, label: `${bpt.name} · ${bpt.accountName}` }))}
            value={bptId}
            onChange={setBptId}
            allowDeselect={false}
            required
          />
        </Group>
        {create.isError && (
          <Alert color="red" variant="light" role="alert">
            {errorMessage(t, create.error)}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button type="submit" loading={create.isPending} disabled={!bptId || !name.trim()}>
            {t('virtualBpts.new')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
