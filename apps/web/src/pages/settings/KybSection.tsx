import {
  ActionIcon,
  Alert,
  Button,
  FileButton,
  Group,
  Loader,
  Paper,
  Skeleton,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { canChangeOrganization, KYB_MAX_BYTES, KYB_MAX_FILES, KYB_TYPES, type KybDocument } from '@rayo/shared';
import { useState } from 'react';
import { errorMessage } from '../../api/error-messages.ts';
import { downloadKybDocument, useDeleteKybDocument, useKybDocuments, useUploadKybDocument } from '../../api/kyb.ts';
import { useDateTimeFormat } from '../../components/date-time.ts';
import { LoadError } from '../../components/LoadError.tsx';
import { useTranslation } from '../../i18n/index.ts';
import { useSession } from '../../session/use-session.ts';
import { checkUpload, formatBytes } from './upload-check.ts';

/** One chosen file on its way: waiting its turn, sending, sent, or refused with a message. */
type Pending = { key: string; name: string; state: 'waiting' | 'sending' | 'done' | 'failed'; message?: string };

/**
 * Settings → KYB documents (SPEC §2 "KYB file upload"): the papers back office verifies the
 * organization with. They are the admins' only (docs/decisions/0026-branding-kyb-checkout-protection.md),
 * so managers are told so.
 */
export function KybSection() {
  const { t } = useTranslation();
  const editable = canChangeOrganization(useSession().role);
  return (
    <Paper withBorder p={{ base: 'md', sm: 'xl' }} maw={560} component="section" aria-labelledby="settings-kyb">
      <Stack gap="md">
        <div>
          <Title order={2} size="h4" id="settings-kyb">
            {t('kyb.title')}
          </Title>
          <Text c="dimmed" size="sm" mt={4}>
            {t('kyb.description')}
          </Text>
        </div>
        {editable ? (
          <KybDocuments />
        ) : (
          <Text size="sm" c="dimmed">
            {t('kyb.adminsOnly')}
          </Text>
        )}
      </Stack>
    </Paper>
  );
}

function KybDocuments() {
  const { t } = useTranslation();
  const documents = useKybDocuments(true);
  const upload = useUploadKybDocument();
  const [pending, setPending] = useState<Pending[]>([]);

  const update = (key: string, change: Partial<Pending>) =>
    setPending((current) => current.map((item) => (item.key === key ? { ...item, ...change } : item)));

  // Files go one request each, one after another, so each is kept or refused on its own.
  const choose = async (files: File[]) => {
    const batch = files.map((file, index) => ({ file, key: `${Date.now()}-${index}` }));
    setPending(batch.map(({ file, key }) => ({ key, name: file.name, state: 'waiting' })));
    let room = KYB_MAX_FILES - (documents.data?.length ?? 0);
    for (const { file, key } of batch) {
      const problem = checkUpload(file, { maxBytes: KYB_MAX_BYTES, types: KYB_TYPES });
      if (problem || room <= 0) {
        const message = problem
          ? t(problem.key, problem.values)
          : t('settingsFiles.errors.tooMany', { count: KYB_MAX_FILES });
        update(key, { state: 'failed', message });
        continue;
      }
      update(key, { state: 'sending' });
      try {
        await upload.mutateAsync(file);
        room -= 1;
        update(key, { state: 'done' });
      } catch (error) {
        update(key, { state: 'failed', message: errorMessage(t, error) });
      }
    }
  };

  return (
    <Stack gap="md">
      <Text size="xs" c="dimmed">
        {t('kyb.hint', { size: formatBytes(KYB_MAX_BYTES), count: KYB_MAX_FILES })}
      </Text>
      <Group>
        <FileButton onChange={(files) => void choose(files)} accept={KYB_TYPES.join(',')} multiple>
          {(props) => (
            <Button {...props} variant="light" loading={upload.isPending}>
              {t('kyb.upload')}
            </Button>
          )}
        </FileButton>
      </Group>
      {pending.length > 0 && (
        <Stack gap={4} aria-live="polite">
          {pending.map((item) => (
            <Group key={item.key} gap="xs" wrap="nowrap">
              {item.state === 'sending' && <Loader size={14} />}
              <Text size="sm" c={item.state === 'failed' ? 'red' : item.state === 'done' ? 'teal' : undefined}>
                {item.name} — {item.state === 'failed' ? item.message : t(`kyb.states.${item.state}`)}
              </Text>
            </Group>
          ))}
        </Stack>
      )}
      {documents.isPending && <Skeleton h={80} />}
      {documents.isError && <LoadError error={documents.error} onRetry={() => documents.refetch()} />}
      {documents.data && <DocumentTable documents={documents.data} />}
    </Stack>
  );
}

function DocumentTable({ documents }: { documents: KybDocument[] }) {
  const { t } = useTranslation();
  const date = useDateTimeFormat('date');
  const remove = useDeleteKybDocument();
  const [downloadFailed, setDownloadFailed] = useState<unknown>(null);
  if (documents.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        {t('kyb.empty')}
      </Text>
    );
  }
  const download = (document: KybDocument) => {
    setDownloadFailed(null);
    downloadKybDocument(document).catch(setDownloadFailed);
  };
  return (
    <Stack gap="xs">
      <Table.ScrollContainer minWidth={300}>
        <Table verticalSpacing="xs" aria-label={t('kyb.title')}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('kyb.columns.name')}</Table.Th>
              <Table.Th>{t('kyb.columns.size')}</Table.Th>
              <Table.Th visibleFrom="xs">{t('kyb.columns.uploaded')}</Table.Th>
              <Table.Th />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {documents.map((document) => (
              <Table.Tr key={document.id}>
                <Table.Td style={{ overflowWrap: 'anywhere' }}>{document.fileName}</Table.Td>
                <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatBytes(document.size)}</Table.Td>
                <Table.Td visibleFrom="xs">{date(document.createdAt)}</Table.Td>
                <Table.Td>
                  <Group gap={4} justify="flex-end" wrap="nowrap">
                    <Button size="compact-sm" variant="subtle" onClick={() => download(document)}>
                      {t('kyb.download')}
                    </Button>
                    <ActionIcon
                      variant="subtle"
                      color="red"
                      aria-label={t('kyb.delete', { name: document.fileName })}
                      loading={remove.isPending && remove.variables === document.id}
                      onClick={() => remove.mutate(document.id)}
                    >
                      ✕
                    </ActionIcon>
                  </Group>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {(remove.isError || downloadFailed !== null) && (
        <Alert color="red" variant="light" role="alert">
          {errorMessage(t, remove.error ?? downloadFailed)}
        </Alert>
      )}
    </Stack>
  );
}
