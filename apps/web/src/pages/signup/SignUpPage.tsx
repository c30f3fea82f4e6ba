import { Anchor, Button, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { ApiError } from '../../api/client.ts';
import { errorMessageKey } from '../../api/error-messages.ts';
import { signUp } from '../../api/onboarding.ts';
import { AuthHeading } from '../../components/AuthHeading.tsx';
import { emailErrorKey, newPasswordErrorKeys } from '../../components/credentials.ts';
import { useFormFields } from '../../components/use-form-fields.ts';
import { useTranslation } from '../../i18n/index.ts';
import { useSession } from '../../session/use-session.ts';

export function SignUpPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { language } = useSession();
  const { values, field, check } = useFormFields({ email: '', password: '', confirmation: '' });
  const [formError, setFormError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setFormError(null);
    const fresh = newPasswordErrorKeys(values.password, values.confirmation);
    if (!check({ email: emailErrorKey(values.email), ...fresh })) return;
    setSubmitting(true);
    try {
      const email = values.email.trim();
      await signUp({ email, password: values.password, language });
      navigate(`/check-your-email?email=${encodeURIComponent(email)}`);
    } catch (error) {
      // SPEC §8 maps sign-up's 'email already exist' to UserAlreadyExist, 'User already exist'.
      setFormError(errorMessageKey(error instanceof ApiError ? error.code : 'Default'));
      setSubmitting(false);
    }
  };

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <AuthHeading title={t('pages.signup')} subtitle={t('signup.subtitle')} error={formError && t(formError)} />
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
