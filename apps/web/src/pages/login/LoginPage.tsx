import { Anchor, Button, Checkbox, Group, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { signIn, startSession } from '../../api/auth.ts';
import { ApiError } from '../../api/client.ts';
import { errorMessageKey } from '../../api/error-messages.ts';
import { AuthHeading } from '../../components/AuthHeading.tsx';
import { emailErrorKey } from '../../components/credentials.ts';
import { lazyPage } from '../../components/lazy-page.tsx';
import { useTranslation } from '../../i18n/index.ts';
import { safeRedirect } from '../../session/routes.ts';
import { sessionStore } from '../../session/session-store.ts';

// Only users with MFA on see the second step: its code and calls load once the password is right.
const MfaStep = lazyPage(() => import('./MfaStep.tsx').then((step) => step.MfaStep));

type FieldErrors = { email?: string; password?: string };

/** SPEC §5: the email is required and valid, the password required. */
export function validateLogin(email: string, password: string): FieldErrors {
  const errors: FieldErrors = {};
  const emailError = emailErrorKey(email);
  if (emailError) errors.email = emailError;
  if (password === '') errors.password = 'errors.missingPassword';
  return errors;
}

/**
 * `preloadScreensAt` fetches the code of the screens at a path: the page starts on the screens a
 * sign-in most often lands on (the `redirect` asked for, or home) while the password is checked,
 * instead of after, behind a loader.
 */
export function LoginPage({ preloadScreensAt }: { preloadScreensAt?: (path: string) => Promise<unknown> }) {
  const { t } = useTranslation();
  const [searchParams] = useSearchParams();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [remember, setRemember] = useState(sessionStore.get().remember);
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  /** Set once the password is right for a user with MFA on: the second step shows. */
  const [mfaToken, setMfaToken] = useState<string | null>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setFormError(null);
    const errors = validateLogin(email, password);
    setFieldErrors(errors);
    if (errors.email || errors.password) return;
    setSubmitting(true);
    preloadScreensAt?.(safeRedirect(searchParams.get('redirect')) ?? '/').catch(() => {});
    try {
      const result = await signIn({ email: email.trim(), password, remember });
      if ('mfaRequired' in result) {
        await MfaStep.preload();
        setMfaToken(result.mfaToken);
        setSubmitting(false);
        return;
      }
      // Storing the session makes the login route's guard send the user on.
      startSession(result, remember);
    } catch (error) {
      setFormError(errorMessageKey(error instanceof ApiError ? error.code : 'Default'));
      setSubmitting(false);
    }
  };

  if (mfaToken) {
    return (
      <MfaStep
        mfaToken={mfaToken}
        remember={remember}
        onRestart={(messageKey) => {
          setMfaToken(null);
          setPassword('');
          setFormError(messageKey);
        }}
      />
    );
  }

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <AuthHeading title={t('login.title')} subtitle={t('login.subtitle')} error={formError && t(formError)} />
        <TextInput
          label={t('login.email')}
          type="email"
          autoComplete="email"
          value={email}
          onChange={(event) => setEmail(event.currentTarget.value)}
          error={fieldErrors.email && t(fieldErrors.email)}
        />
        <PasswordInput
          label={t('login.password')}
          autoComplete="current-password"
          value={password}
          onChange={(event) => setPassword(event.currentTarget.value)}
          error={fieldErrors.password && t(fieldErrors.password)}
        />
        <Group justify="space-between">
          <Checkbox
            label={t('login.remember')}
            checked={remember}
            onChange={(event) => setRemember(event.currentTarget.checked)}
          />
          <Anchor component={Link} to="/forgot-password" size="sm">
            {t('login.forgot')}
          </Anchor>
        </Group>
        <Button type="submit" loading={submitting} fullWidth size="md">
          {t('login.submit')}
        </Button>
        <Text size="sm" ta="center">
          {t('login.noAccount')}{' '}
          <Anchor component={Link} to="/signup">
            {t('login.signup')}
          </Anchor>
        </Text>
      </Stack>
    </form>
  );
}
