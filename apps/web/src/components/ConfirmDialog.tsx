import { Alert, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useTranslation } from '../i18n/index.ts';

/** Asks before an action that cannot be undone, and shows why it failed if it does. */
export function ConfirmDialog(props: {
  opened: boolean;
  title: string;
  message: string;
  confirmLabel: string;
  loading: boolean;
  error: string | null;
  onConfirm: () => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Modal opened={props.opened} onClose={props.onClose} title={props.title} centered>
      <Stack>
        <Text>{props.message}</Text>
        {props.error && (
          <Alert color="red" role="alert">
            {props.error}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={props.onClose}>
            {t('common.cancel')}
          </Button>
          <Button color="red" loading={props.loading} onClick={props.onConfirm} data-autofocus>
            {props.confirmLabel}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
