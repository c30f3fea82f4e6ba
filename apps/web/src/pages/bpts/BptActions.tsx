import { ActionIcon, Button, CopyButton, Group, Tooltip } from '@mantine/core';
import type { Bpt } from '@rayo/shared';
import { IconCheck, IconDeviceMobile, IconLink, IconPencil, IconRefresh, IconTrash } from '@tabler/icons-react';
import { Link } from 'react-router';
import { shareLinkOf } from '../../api/bpts.ts';
import { useTranslation } from '../../i18n/index.ts';

/** Copy and rotate the public link of a shareable BPT's terminal. */
export function ShareLinkActions({
  bpt,
  editable,
  onRotate,
}: {
  bpt: Bpt;
  editable: boolean;
  onRotate: (bpt: Bpt) => void;
}) {
  const { t } = useTranslation();
  if (!bpt.shareToken) return null;
  return (
    <Group gap={4} wrap="nowrap">
      <CopyButton value={shareLinkOf(bpt.shareToken)} timeout={2000}>
        {({ copied, copy }) => (
          <Tooltip label={copied ? t('bpts.linkCopied') : t('bpts.copyLink', { name: bpt.name })} withArrow>
            <ActionIcon
              variant="subtle"
              color={copied ? 'teal' : 'gray'}
              size="lg"
              aria-label={t('bpts.copyLink', { name: bpt.name })}
              onClick={copy}
            >
              {copied ? <IconCheck size={18} /> : <IconLink size={18} />}
            </ActionIcon>
          </Tooltip>
        )}
      </CopyButton>
      {editable && (
        <Tooltip label={t('bpts.rotateLabel', { name: bpt.name })} withArrow>
          <ActionIcon
            variant="subtle"
            color="gray"
            size="lg"
            aria-label={t('bpts.rotateLabel', { name: bpt.name })}
            onClick={() => onRotate(bpt)}
          >
            <IconRefresh size={18} />
          </ActionIcon>
        </Tooltip>
      )}
    </Group>
  );
}

/** Open the terminal; administrators also edit and delete. */
export function BptActions({
  bpt,
  editable,
  onEdit,
  onDelete,
}: {
  bpt: Bpt;
  editable: boolean;
  onEdit: (bpt: Bpt) => void;
  onDelete: (bpt: Bpt) => void;
}) {
  const { t } = useTranslation();
  return (
    <Group gap="xs" wrap="nowrap">
      <Button
        component={Link}
        to={`/bpts/${encodeURIComponent(bpt.id)}/terminal`}
        size="xs"
        variant="light"
        leftSection={<IconDeviceMobile size={16} />}
      >
        {t('bpts.openTerminal')}
      </Button>
      {editable && (
        <>
          <ActionIcon
            variant="subtle"
            color="gray"
            size="lg"
            aria-label={t('bpts.editLabel', { name: bpt.name })}
            onClick={() => onEdit(bpt)}
          >
            <IconPencil size={18} />
          </ActionIcon>
          <ActionIcon
            variant="subtle"
            color="red"
            size="lg"
            aria-label={t('bpts.deleteLabel', { name: bpt.name })}
            onClick={() => onDelete(bpt)}
          >
            <IconTrash size={18} />
          </ActionIcon>
        </>
      )}
    </Group>
  );
}
