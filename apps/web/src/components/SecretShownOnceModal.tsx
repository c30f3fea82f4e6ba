import { Button, Code, CopyButton, Group, Modal, Stack, Text } from '@mantine/core';
import { useTranslation } from '../i18n/index.ts';
import { useReturnFocus } from './use-return-focus.ts';

/**
 * A secret the server keeps only as a hash, or never lists again: this dialog is the one time
 * the user sees it, so it offers a copy button and stays until they close it.
 */
export function SecretShownOnceModal({
  title,
  help,
  secret,
  testId,
  doneLabel,
  onClose,
}: {
  title: string;
  help: string;
  secret: string;
  testId: string;
  doneLabel: string;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  useReturnFocus();
  return (
    <Modal opened onClose={onClose} title={title} centered size="lg">
      <Stack>
        <Text size="sm">{help}</Text>
        <Code block data-testid={testId} style={{ wordBreak: 'break-all', whiteSpace: 'pre-wrap' }}>
          {secret}
        </Code>
        <Group justify="flex-end">
          <CopyButton value={secret}>
            {({ copied, copy }) => (
              <Button variant="default" onClick={copy}>
                {t(copied ? 'common.copied' : 'common.copy')}
              </Button>
            )}
          </CopyButton>
          <Button onClick={onClose}>{doneLabel}</Button>
        </Group>
      </Stack>
    </Modal>
  );
}
