import { Badge, Button, Card, EmptyState, Group, Loader, Stack, Table, Text, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { type Bpt, canChangeOrganization, MOBILE_MAX_WIDTH_PX, SATS } from '@rayo/shared';
import { IconDeviceMobile, IconPlus } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { useBpts, useDeleteBpt, useRotateShareToken } from '../../api/bpts.ts';
import { errorMessage } from '../../api/error-messages.ts';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { useFormatLocale } from '../../components/format-locale.ts';
import { formatPercent } from '../../components/format-percent.ts';
import { notifications } from '../../components/notifications.ts';
import { useTranslation } from '../../i18n/index.ts';
import { useSession } from '../../session/use-session.ts';
import { BptActions, ShareLinkActions } from './BptActions.tsx';
import { BptFormModal } from './BptFormModal.tsx';
import { channelLabel } from './channels.ts';

/** The form is open for a new BPT (`null`) or for an existing one. */
type Editing = { bpt: Bpt | null } | null;
type Confirming = { action: 'delete' | 'rotate'; bpt: Bpt } | null;

export function BptsPage() {
  const { t } = useTranslation();
  const locale = useFormatLocale();
  const { role } = useSession();
  const editable = canChangeOrganization(role);
  const isMobile = useMediaQuery(`(max-width: ${MOBILE_MAX_WIDTH_PX - 0.02}px)`);
  const bpts = useBpts();
  const remove = useDeleteBpt();
  const rotate = useRotateShareToken();
  const [editing, setEditing] = useState<Editing>(null);
  // The dialog keeps showing its BPT while it closes, so `confirming` outlives `confirmOpen`.
  const [confirming, setConfirming] = useState<Confirming>(null);
  const [confirmOpen, setConfirmOpen] = useState(false);
  const confirmation = confirming?.action === 'rotate' ? rotate : remove;

  // SPEC §8: a failed BPT load says 'Error getting the BPTs' in a red snackbar at the top, again
  // after each failed retry.
  const failedAt = bpts.isError ? bpts.errorUpdatedAt : 0;
  useEffect(() => {
    if (failedAt) {
      notifications.show({ id: 'bpts-failed', color: 'red', position: 'top-right', message: t('errors.bptsFailed') });
    }
  }, [failedAt, t]);

  const closeConfirm = () => {
    setConfirmOpen(false);
    remove.reset();
    rotate.reset();
  };
  const confirm = () => {
    if (!confirming) return;
    confirmation.mutate(confirming.bpt.id, {
      onSuccess: () => {
        notifications.show({
          color: 'teal',
          message: t(confirming.action === 'rotate' ? 'bpts.rotated' : 'bpts.deleted'),
        });
        closeConfirm();
      },
    });
  };
  const onEdit = (bpt: Bpt) => setEditing({ bpt });
  const askConfirm = (action: 'delete' | 'rotate') => (bpt: Bpt) => {
    setConfirming({ action, bpt });
    setConfirmOpen(true);
  };
  const onDelete = askConfirm('delete');
  const onRotate = askConfirm('rotate');
  const createButton = editable && (
    <Button leftSection={<IconPlus size={18} />} onClick={() => setEditing({ bpt: null })}>
      {t('bpts.new')}
    </Button>
  );
  const currencyOf = (bpt: Bpt) => (bpt.currency === SATS ? t('bpts.sats') : bpt.currency);
  const yesNo = (value: boolean) => t(value ? 'common.yes' : 'common.no');

  return (
    <>
      <Group justify="space-between" mb="lg">
        <Title order={1} size="h2">
          {t('nav.bpts')}
        </Title>
        {bpts.data?.length ? createButton : null}
      </Group>

      {bpts.isPending && <Loader aria-label={t('common.loading')} />}
      {bpts.isError && (
        <Button variant="default" onClick={() => bpts.refetch()}>
          {t('common.retry')}
        </Button>
      )}
      {bpts.data?.length === 0 && (
        <EmptyState
          icon={<IconDeviceMobile size={32} />}
          variant="light"
          title={t('bpts.emptyTitle')}
          description={t('bpts.emptyText')}
          py="xl"
        >
          {createButton && <EmptyState.Actions>{createButton}</EmptyState.Actions>}
        </EmptyState>
      )}

      {bpts.data && bpts.data.length > 0 && isMobile && (
        <Stack>
          {bpts.data.map((bpt) => (
            <Card key={bpt.id} withBorder padding="md" component="article" aria-label={bpt.name}>
              <Group justify="space-between" align="flex-start" wrap="nowrap">
                <div>
                  <Text fw={600}>{bpt.name}</Text>
                  <Text size="sm" c="dimmed">
                    {bpt.accountName} · {channelLabel(t, bpt.channel)}
                  </Text>
                </div>
                <Badge variant="light" color="gray" style={{ flexShrink: 0 }}>
                  {currencyOf(bpt)}
                </Badge>
              </Group>
              <Group gap="xs" my="sm">
                {bpt.tipEnabled && <Badge variant="outline">{t('bpts.tipOn')}</Badge>}
                <Badge variant="outline" color="gray">
                  {t('bpts.taxValue', { percent: formatPercent(bpt.taxPercentage, locale) })}
                </Badge>
                <Badge variant="outline" color={bpt.shareable ? 'teal' : 'gray'}>
                  {t(bpt.shareable ? 'bpts.shared' : 'bpts.notShared')}
                </Badge>
                <ShareLinkActions bpt={bpt} editable={editable} onRotate={onRotate} />
              </Group>
              <BptActions bpt={bpt} editable={editable} onEdit={onEdit} onDelete={onDelete} />
            </Card>
          ))}
        </Stack>
      )}

      {bpts.data && bpts.data.length > 0 && !isMobile && (
        <Table striped highlightOnHover verticalSpacing="sm">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('bpts.name')}</Table.Th>
              <Table.Th>{t('bpts.account')}</Table.Th>
              <Table.Th>{t('bpts.channel')}</Table.Th>
              <Table.Th>{t('bpts.currency')}</Table.Th>
              <Table.Th>{t('bpts.tip')}</Table.Th>
              <Table.Th ta="right">{t('bpts.tax')}</Table.Th>
              <Table.Th>{t('bpts.shareable')}</Table.Th>
              <Table.Th w={1}>{t('common.actions')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {bpts.data.map((bpt) => (
              <Table.Tr key={bpt.id}>
                <Table.Td fw={500}>{bpt.name}</Table.Td>
                <Table.Td>{bpt.accountName}</Table.Td>
                <Table.Td>{channelLabel(t, bpt.channel)}</Table.Td>
                <Table.Td>{currencyOf(bpt)}</Table.Td>
                <Table.Td>{yesNo(bpt.tipEnabled)}</Table.Td>
                <Table.Td ta="right">{formatPercent(bpt.taxPercentage, locale)}</Table.Td>
                <Table.Td>
                  <Group gap="xs" wrap="nowrap">
                    {yesNo(bpt.shareable)}
                    <ShareLinkActions bpt={bpt} editable={editable} onRotate={onRotate} />
                  </Group>
                </Table.Td>
                <Table.Td>
                  <BptActions bpt={bpt} editable={editable} onEdit={onEdit} onDelete={onDelete} />
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}

      {editing && <BptFormModal bpt={editing.bpt} onClose={() => setEditing(null)} />}
      <ConfirmDialog
        opened={confirmOpen}
        title={t(confirming?.action === 'rotate' ? 'bpts.rotateTitle' : 'bpts.deleteTitle')}
        message={t(confirming?.action === 'rotate' ? 'bpts.rotateText' : 'bpts.deleteText', {
          name: confirming?.bpt.name,
        })}
        confirmLabel={t(confirming?.action === 'rotate' ? 'bpts.rotateConfirm' : 'common.delete')}
        loading={confirmation.isPending}
        error={confirmation.error ? errorMessage(t, confirmation.error) : null}
        onConfirm={confirm}
        onClose={closeConfirm}
      />
    </>
  );
}
