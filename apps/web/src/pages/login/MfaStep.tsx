import { Anchor, Button, Group, Stack, TextInput } from '@mantine/core';
import { isMfaCodeShaped } from '@rayo/shared';
import { type FormEvent, useState } from 'react';
import { startSession } from '../../api/auth.ts';
import { ApiError } from '../../api/client.ts';
import { errorMessageKey } from '../../api/error-messages.ts';
import { signInWithMfaCode, signInWithRecoveryCode } from '../../api/mfa.ts';
import { AuthHeading } from '../../components/AuthHeading.tsx';
import { useTranslation } from '../../i18n/index.ts';

type Mode = 'code' | 'recovery';

/**
 * Sign-in's second step for users with MFA on: the authenticator's code, or a recovery code.
 * `onRestart` goes back to the password step, with the message to show there.
 */
export function MfaStep({
  mfaToken,
  remember,
  onRestart,
}: {
  mfaToken: string;
  remember: boolean;
  onRestart: (messageKey: string | null) => void;
}) {
  const { t } = useTranslation();
  const [mode, setMode] = useState<Mode>('code');
  const [value, setValue] = useState('');
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);

  const switchMode = () => {
    setMode(mode === 'code' ? 'recovery' : 'code');
    setValue('');
    setFieldError(null);
    setFormError(null);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setFormError(null);
    const entered = value.trim();
    const shapeError =
      mode === 'code' ? !isMfaCodeShaped(entered) && 'mfa.errors.codeShape' : !entered && 'mfa.errors.missingCode';
    setFieldError(shapeError || null);
    if (shapeError) return;
    setSubmitting(true);
    try {
      const session =
        mode === 'code'
          ? await signInWithMfaCode({ mfaToken, code: entered, remember })
          : await signInWithRecoveryCode({ mfaToken, recoveryCode: entered, remember });
      // Storing the session makes the login route's guard send the user on.
      startSession(session, remember);
    } catch (error) {
      setSubmitting(false);
      const code = error instanceof ApiError ? error.code : 'Default';
      if (code === 'MfaChallengeExpired') onRestart(errorMessageKey(code));
      else if (code === 'WrongMfaCode' || code === 'MfaCodeReused' || code === 'WrongRecoveryCode') {
        setFieldError(errorMessageKey(code));
      } else setFormError(errorMessageKey(code));
    }
  };

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <AuthHeading
          title={t('mfa.login.title')}
          subtitle={t(mode === 'code' ? 'mfa.login.codeHelp' : 'mfa.login.recoveryHelp')}
          error={formError && t(formError)}
        />
        <TextInput
          key={mode}
          label={t(mode === 'code' ? 'mfa.login.codeLabel' : 'mfa.login.recoveryLabel')}
          inputMode={mode === 'code' ? 'numeric' : 'text'}
          autoComplete={mode === 'code' ? 'one-time-code' : 'off'}
          autoFocus
          value={value}
          onChange={(event) => setValue(event.currentTarget.value)}
          error={fieldError && t(fieldError)}
        />
        <Button type="submit" loading={submitting} fullWidth size="md">
          {t('mfa.login.submit')}
        </Button>
        <Group justify="space-between">
          <Anchor component="button" type="button" size="sm" onClick={switchMode}>
            {t(mode === 'code' ? 'mfa.login.useRecovery' : 'mfa.login.useCode')}
          </Anchor>
          <Anchor component="button" type="button" size="sm" c="dimmed" onClick={() => onRestart(null)}>
            {t('mfa.login.back')}
          </Anchor>
        </Group>
      </Stack>
    </form>
  );
}
