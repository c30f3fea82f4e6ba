import { Alert, Anchor, Button, Input, PasswordInput, PinInput, Stack, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { RESET_CODE_LENGTH } from '@rayo/shared';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { ApiError } from '../../api/client.ts';
import { errorMessageKey } from '../../api/error-messages.ts';
import { resetPassword } from '../../api/onboarding.ts';
import { AuthHeading } from '../../components/AuthHeading.tsx';
import { emailErrorKey, newPasswordErrorKeys } from '../../components/credentials.ts';

type Form = { email: string; code: string; password: string; confirmation: string };

/** Reached from the reset screen, or from the mailed link with the email and code filled in. */
export function ConfirmForgotPasswordPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const [form, setForm] = useState<Form>({
    email: searchParams.get('email') ?? '',
    code: searchParams.get('code') ?? '',
    password: '',
    confirmation: '',
  });
  const [fieldErrors, setFieldErrors] = useState<Partial<Record<keyof Form, string>>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setFormError(null);
    const errors = {
      email: emailErrorKey(form.email),
      code: /^\d+$/.test(form.code) && form.code.length === RESET_CODE_LENGTH ? undefined : 'passwordReset.codeRule',
      ...newPasswordErrorKeys(form.password, form.confirmation),
    };
    setFieldErrors(errors);
    if (Object.values(errors).some(Boolean)) return;
    setSubmitting(true);
    try {
      await resetPassword({ email: form.email.trim(), code: form.code, password: form.password });
      notifications.show({ color: 'teal', message: t('passwordReset.done') });
      navigate('/login', { replace: true });
    } catch (error) {
      setFormError(errorMessageKey(error instanceof ApiError ? error.code : 'Default'));
      setSubmitting(false);
    }
  };

  const text = (name: keyof Form) => ({
    value: form[name],
    onChange: (event: FormEvent<HTMLInputElement>) => setForm({ ...form, [name]: event.currentTarget.value }),
    error: fieldErrors[name] && t(fieldErrors[name]),
  });

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <AuthHeading title={t('pages.confirmForgotPassword')} subtitle={t('passwordReset.newSubtitle')} />
        {formError && (
          <Alert color="red" variant="light" role="alert">
            {t(formError)}
          </Alert>
        )}
        <TextInput label={t('login.email')} type="email" autoComplete="email" {...text('email')} />
        <Input.Wrapper label={t('passwordReset.code')} error={fieldErrors.code && t(fieldErrors.code)}>
          <PinInput
            length={RESET_CODE_LENGTH}
            type="number"
            oneTimeCode
            value={form.code}
            onChange={(code) => setForm({ ...form, code })}
            error={Boolean(fieldErrors.code)}
            aria-label={t('passwordReset.code')}
            mt={4}
          />
        </Input.Wrapper>
        <PasswordInput
          label={t('settings.password.new')}
          description={t('settings.password.rule')}
          autoComplete="new-password"
          {...text('password')}
        />
        <PasswordInput
          label={t('settings.password.confirmation')}
          autoComplete="new-password"
          {...text('confirmation')}
        />
        <Button type="submit" loading={submitting} fullWidth size="md">
          {t('passwordReset.save')}
        </Button>
        <Anchor component={Link} to="/forgot-password" size="sm" ta="center">
          {t('passwordReset.newCode')}
        </Anchor>
      </Stack>
    </form>
  );
}
