import { Anchor, Button, Stack, TextInput } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { ApiError } from '../../api/client.ts';
import { errorMessageKey } from '../../api/error-messages.ts';
import { requestPasswordReset } from '../../api/onboarding.ts';
import { AuthHeading } from '../../components/AuthHeading.tsx';
import { emailErrorKey } from '../../components/credentials.ts';
import { useFormFields } from '../../components/use-form-fields.ts';
import { useTranslation } from '../../i18n/index.ts';

export function ForgotPasswordPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { values, field, check } = useFormFields({ email: '' });
  const [formError, setFormError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setFormError(null);
    if (!check({ email: emailErrorKey(values.email) })) return;
    setSubmitting(true);
    const email = values.email.trim();
    try {
      await requestPasswordReset(email);
      navigate(`/confirm-forgot-password?email=${encodeURIComponent(email)}`);
    } catch (error) {
      const code = error instanceof ApiError ? error.code : 'Default';
      setFormError(code === 'EmailNotFound' ? 'errors.emailUnknown' : errorMessageKey(code));
      setSubmitting(false);
    }
  };

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <AuthHeading
          title={t('pages.forgotPassword')}
          subtitle={t('passwordReset.subtitle')}
          error={formError && t(formError)}
        />
        <TextInput label={t('login.email')} type="email" autoComplete="email" {...field('email')} />
        <Button type="submit" loading={submitting} fullWidth size="md">
          {t('passwordReset.send')}
        </Button>
        <Anchor component={Link} to="/login" size="sm" ta="center">
          {t('checkEmail.toLogin')}
        </Anchor>
      </Stack>
    </form>
  );
}
