import { Alert, Button, Group } from '@mantine/core';
import { errorMessage } from '../api/error-messages.ts';
import { useTranslation } from '../i18n/index.ts';

/** The end of a create-or-edit form: why the last save failed, then Cancel and Create (or Save). */
export function FormFooter({
  editing,
  error,
  saving,
  onCancel,
}: {
  editing: boolean;
  error: unknown;
  saving: boolean;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  return (
    <>
      {error ? (
        <Alert color="red" role="alert">
          {errorMessage(t, error)}
        </Alert>
      ) : null}
      <Group justify="flex-end">
        <Button variant="default" onClick={onCancel}>
          {t('common.cancel')}
        </Button>
        <Button type="submit" loading={saving}>
          {t(editing ? 'common.save' : 'common.create')}
        </Button>
      </Group>
    </>
  );
}
