import { ActionIcon, Anchor, Badge, CopyButton, Group, Modal, Paper, Stack, Text, Title, Tooltip } from '@mantine/core';
import type { DonationLink } from '@rayo/shared';
import { canChangeOrganization } from '@rayo/shared';
import { IconCheck, IconCopy, IconExternalLink, IconQrcode, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { useDeleteDonationLink, useDonationLinks } from '../../../api/donations.ts';
import { errorMessage } from '../../../api/error-messages.ts';
import { ConfirmDialog } from '../../../components/ConfirmDialog.tsx';
import { useFormatLocale } from '../../../components/format-locale.ts';
import { LoadError } from '../../../components/LoadError.tsx';
import { formatSats } from '../../../components/money-format.ts';
import { notifications } from '../../../components/notifications.ts';
import { QrCode } from '../../../components/QrCode.tsx';
import { useTranslation } from '../../../i18n/index.ts';
import { useSession } from '../../../session/use-session.ts';
import { DonationAddressPanel } from './DonationAddressPanel.tsx';
import { DonationHistory } from './DonationHistory.tsx';
import { DonationLinkForm } from './DonationLinkForm.tsx';

/** Where a donor opens the link: the public donation page. */
export function donationPageUrl(id: string): string {
  return `${window.location.origin}/donation/${id}`;
}

function LinkCard({ link, canDelete, onDelete }: { link: DonationLink; canDelete: boolean; onDelete: () => void }) {
  const { t } = useTranslation();
  const locale = useFormatLocale();
  const [showQr, setShowQr] = useState(false);
  const url = donationPageUrl(link.id);
  return (
    <Paper withBorder p="sm" radius="md" data-testid="donation-link">
      <Group justify="space-between" wrap="wrap" gap="xs">
        <Stack gap={2} style={{ minWidth: 0, flex: '1 1 200px' }}>
          <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
            {link.title}
          </Text>
          <Group gap="xs">
            <Badge variant="light" color={link.amountSats === null ? 'gray' : 'blue'}>
              {link.amountSats === null ? t('donations.anyAmount') : formatSats(BigInt(link.amountSats), locale)}
            </Badge>
            <Text size="sm" c="dimmed">
              {link.virtualBptName}
            </Text>
          </Group>
        </Stack>
        <Group gap={4} wrap="nowrap">
          <Tooltip label={t('donations.openPage')}>
            <ActionIcon
              component="a"
              href={url}
              target="_blank"
              rel="noopener"
              variant="subtle"
              aria-label={t('donations.openPage')}
            >
              <IconExternalLink size={18} />
            </ActionIcon>
          </Tooltip>
          <CopyButton value={url} timeout={2000}>
            {({ copied, copy }) => (
              <Tooltip label={t(copied ? 'donations.linkCopied' : 'donations.copyLink')}>
                <ActionIcon
                  variant="subtle"
                  color={copied ? 'teal' : undefined}
                  onClick={copy}
                  aria-label={t('donations.copyLink')}
                >
                  {copied ? <IconCheck size={18} /> : <IconCopy size={18} />}
                </ActionIcon>
              </Tooltip>
            )}
          </CopyButton>
          <Tooltip label={t('donations.showQr')}>
            <ActionIcon variant="subtle" onClick={() => setShowQr(true)} aria-label={t('donations.showQr')}>
              <IconQrcode size={18} />
            </ActionIcon>
          </Tooltip>
          {canDelete && (
            <Tooltip label={t('common.delete')}>
              <ActionIcon variant="subtle" color="red" onClick={onDelete} aria-label={t('donations.deleteLink')}>
                <IconTrash size={18} />
              </ActionIcon>
            </Tooltip>
          )}
        </Group>
      </Group>
      <Modal opened={showQr} onClose={() => setShowQr(false)} title={link.title} centered>
        <Stack gap="sm">
          <QrCode value={`lightning:${link.lnurl}`} alt={t('donations.page.lnurlAlt')} size={280} />
          <Text size="sm" c="dimmed" ta="center">
            {t('donations.qrHint')}
          </Text>
          <Anchor href={url} target="_blank" rel="noopener" size="sm" ta="center" style={{ overflowWrap: 'anywhere' }}>
            {url}
          </Anchor>
        </Stack>
      </Modal>
    </Paper>
  );
}

function LinkList({ links, canDelete }: { links: DonationLink[]; canDelete: boolean }) {
  const { t } = useTranslation();
  const remove = useDeleteDonationLink();
  const [deleting, setDeleting] = useState<DonationLink | null>(null);
  if (links.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        {t('donations.empty')}
      </Text>
    );
  }
  const confirm = () => {
    if (!deleting) return;
    remove.mutate(deleting.id, {
      onSuccess: () => {
        setDeleting(null);
        notifications.show({ color: 'teal', message: t('donations.deleted') });
      },
    });
  };
  return (
    <Stack gap="xs">
      {links.map((link) => (
        <LinkCard
          key={link.id}
          link={link}
          canDelete={canDelete}
          onDelete={() => {
            remove.reset();
            setDeleting(link);
          }}
        />
      ))}
      <ConfirmDialog
        opened={deleting !== null}
        title={t('donations.deleteTitle')}
        message={t('donations.deleteText', { title: deleting?.title ?? '' })}
        confirmLabel={t('common.delete')}
        loading={remove.isPending}
        error={remove.isError ? errorMessage(t, remove.error) : null}
        onConfirm={confirm}
        onClose={() => setDeleting(null)}
      />
    </Stack>
  );
}

/**
 * Integrations → donations via LNURL-Pay (SPEC §2): the donation links with their page, link and
 * LNURL QR, the organization's Lightning address, and the donations received. Admins create and
 * delete; managers view.
 */
export function DonationsSection() {
  const { t } = useTranslation();
  const { role } = useSession();
  const admin = canChangeOrganization(role);
  const links = useDonationLinks();
  return (
    <Paper withBorder p={{ base: 'md', sm: 'xl' }} component="section" aria-labelledby="integrations-donations">
      <Stack gap="lg">
        <div>
          <Title order={2} size="h4" id="integrations-donations">
            {t('donations.title')}
          </Title>
          <Text c="dimmed" size="sm" mt={4}>
            {t('donations.description')}
          </Text>
        </div>
        {links.isError ? (
          <LoadError error={links.error} onRetry={() => links.refetch()} />
        ) : links.isPending ? (
          <Text size="sm">{t('common.loading')}</Text>
        ) : (
          <LinkList links={links.data} canDelete={admin} />
        )}
        {admin && <DonationLinkForm />}
        <DonationAddressPanel links={links.data ?? []} canChange={admin} />
        <DonationHistory />
      </Stack>
    </Paper>
  );
}
