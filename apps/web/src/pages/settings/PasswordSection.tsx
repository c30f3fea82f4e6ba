import { Alert, Button, Checkbox, Group, Paper, PasswordInput, Stack, Text, Title } from '@mantine/core';
import { canChangeOrganization } from '@rayo/shared';
import { type ChangeEvent, type FormEvent, useState } from 'react';
import { ApiError } from '../../api/client.ts';
import { errorMessage, errorMessageKey } from '../../api/error-messages.ts';
import { useChangePassword } from '../../api/settings.ts';
import { notifications } from '../../components/notifications.ts';
import { useTranslation } from '../../i18n/index.ts';
import { useSession } from '../../session/use-session.ts';
import { type PasswordChangeErrors, type PasswordChangeForm, validatePasswordChange } from './password-change.ts';

const empty: PasswordChangeForm = { currentPassword: '', newPassword: '', confirmation: '' };

export function PasswordSection() {
  const { t } = useTranslation();
  const change = useChangePassword();
  const [form, setForm] = useState(empty);
  const [fieldErrors, setFieldErrors] = useState<PasswordChangeErrors>({});
  // Only admins make developer tokens.
  const makesTokens = canChangeOrganization(useSession().role);
  const [revokeDeveloperTokens, setRevokeDeveloperTokens] = useState(false);

  // A wrong current password belongs next to that field; other failures go above the form.
  const wrongCurrent = change.error instanceof ApiError && change.error.code === 'WrongCurrentPassword';
  const errorKeys: PasswordChangeErrors = wrongCurrent
    ? { ...fieldErrors, currentPassword: errorMessageKey('WrongCurrentPassword') }
    : fieldErrors;

  const field = (name: keyof PasswordChangeForm) => ({
    value: form[name],
    onChange: (event: ChangeEvent<HTMLInputElement>) => setForm({ ...form, [name]: event.currentTarget.value }),
    error: errorKeys[name] && t(errorKeys[name]),
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    change.reset();
    const errors = validatePasswordChange(form);
    setFieldErrors(errors);
    if (Object.keys(errors).length > 0) return;
    change.mutate(
      { currentPassword: form.currentPassword, newPassword: form.newPassword, revokeDeveloperTokens },
      {
        onSuccess: () => {
          setForm(empty);
          setRevokeDeveloperTokens(false);
          notifications.show({ color: 'teal', message: t('settings.password.changed') });
        },
      },
    );
  };

  return (
    <Paper withBorder p={{ base: 'md', sm: 'xl' }} maw={560} component="section" aria-labelledby="settings-password">
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          <div>
            <Title order={2} size="h4" id="settings-password">
              {t('settings.password.title')}
            </Title>
            <Text c="dimmed" size="sm" mt={4}>
              {t('settings.password.description')}
            </Text>
          </div>
          {change.isError && !wrongCurrent && (
            <Alert color="red" variant="light" role="alert">
              {errorMessage(t, change.error)}
            </Alert>
          )}
          <PasswordInput
            label={t('settings.password.current')}
            autoComplete="current-password"
            {...field('currentPassword')}
          />
          <PasswordInput
            label={t('settings.password.new')}
            description={t('settings.password.rule')}
            autoComplete="new-password"
            {...field('newPassword')}
          />
          <PasswordInput
            label={t('settings.password.confirmation')}
            autoComplete="new-password"
            {...field('confirmation')}
          />
          {makesTokens && (
            <Checkbox
              label={t('settings.password.revokeDeveloperTokens')}
              checked={revokeDeveloperTokens}
              onChange={(event) => setRevokeDeveloperTokens(event.currentTarget.checked)}
            />
          )}
          <Group justify="flex-end">
            <Button type="submit" loading={change.isPending}>
              {t('settings.password.submit')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}
