import { Alert, Anchor, Button, Stack, TextInput } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { ApiError } from '../../api/client.ts';
import { errorMessageKey } from '../../api/error-messages.ts';
import { requestPasswordReset } from '../../api/onboarding.ts';
import { AuthHeading } from '../../components/AuthHeading.tsx';
import { emailErrorKey } from '../../components/credentials.ts';

export function ForgotPasswordPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [email, setEmail] = useState('');
  const [fieldError, setFieldError] = useState<string | undefined>();
  const [formError, setFormError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setFormError(null);
    const error = emailErrorKey(email);
    setFieldError(error);
    if (error) return;
    setSubmitting(true);
    try {
      await requestPasswordReset(email.trim());
      navigate(`/confirm-forgot-password?email=${encodeURIComponent(email.trim())}`);
    } catch (caught) {
      const code = caught instanceof ApiError ? caught.code : 'Default';
      setFormError(code === 'EmailNotFound' ? 'errors.emailUnknown' : errorMessageKey(code));
      setSubmitting(false);
    }
  };

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <AuthHeading title={t('pages.forgotPassword')} subtitle={t('passwordReset.subtitle')} />
        {formError && (
          <Alert color="red" variant="light" role="alert">
            {t(formError)}
          </Alert>
        )}
        <TextInput
          label={t('login.email')}
          type="email"
          autoComplete="email"
          value={email}
          onChange={(event) => setEmail(event.currentTarget.value)}
          error={fieldError && t(fieldError)}
        />
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
