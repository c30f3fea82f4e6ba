import { Alert, Anchor, Button, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { ApiError } from '../../api/client.ts';
import { errorMessageKey } from '../../api/error-messages.ts';
import { signUp } from '../../api/onboarding.ts';
import { AuthHeading } from '../../components/AuthHeading.tsx';
import { emailErrorKey, newPasswordErrorKeys } from '../../components/credentials.ts';
import { useSession } from '../../session/use-session.ts';

type FieldErrors = { email?: string; password?: string; confirmation?: string };

export function SignUpPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { language } = useSession();
  const [form, setForm] = useState({ email: '', password: '', confirmation: '' });
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setFormError(null);
    const errors: FieldErrors = {
      email: emailErrorKey(form.email),
      ...newPasswordErrorKeys(form.password, form.confirmation),
    };
    setFieldErrors(errors);
    if (Object.values(errors).some(Boolean)) return;
    setSubmitting(true);
    try {
      const email = form.email.trim();
      await signUp({ email, password: form.password, language });
      navigate(`/check-your-email?email=${encodeURIComponent(email)}`);
    } catch (error) {
      const code = error instanceof ApiError ? error.code : 'Default';
      // SPEC §8 words a taken address this way on sign-up.
      setFormError(code === 'UserAlreadyExist' ? 'errors.emailInUse' : errorMessageKey(code));
      setSubmitting(false);
    }
  };

  const field = (name: keyof typeof form) => ({
    value: form[name],
    onChange: (event: FormEvent<HTMLInputElement>) => setForm({ ...form, [name]: event.currentTarget.value }),
    error: fieldErrors[name] && t(fieldErrors[name]),
  });

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <AuthHeading title={t('pages.signup')} subtitle={t('signup.subtitle')} />
        {formError && (
          <Alert color="red" variant="light" role="alert">
            {t(formError)}
          </Alert>
        )}
        <TextInput label={t('login.email')} type="email" autoComplete="email" {...field('email')} />
        <PasswordInput
          label={t('login.password')}
          description={t('settings.password.rule')}
          autoComplete="new-password"
          {...field('password')}
        />
        <PasswordInput label={t('signup.confirmation')} autoComplete="new-password" {...field('confirmation')} />
        <Button type="submit" loading={submitting} fullWidth size="md">
          {t('signup.submit')}
        </Button>
        <Text size="sm" ta="center">
          {t('signup.haveAccount')}{' '}
          <Anchor component={Link} to="/login">
            {t('login.submit')}
          </Anchor>
        </Text>
      </Stack>
    </form>
  );
}
