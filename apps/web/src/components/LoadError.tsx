import { Alert, Button, Group } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../api/error-messages.ts';

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
