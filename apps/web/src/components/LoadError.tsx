import { Alert, Button, Group } from '@mantine/core';
import { errorMessage } from '../api/error-messages.ts';
import { useTranslation } from '../i18n/index.ts';

/** A list that failed to load: what went wrong, and a retry. */
export function LoadError({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  const { t } = useTranslation();
  return (
    <Alert color="red" role="alert">
      <Group justify="space-between">
        {errorMessage(t, error)}
        <Button size="xs" variant="white" color="red" onClick={onRetry}>
          {t('common.retry')}
        </Button>
      </Group>
    </Alert>
  );
}
