import { Alert, Button, Code, CopyButton, Group, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { isMfaCodeShaped, type MfaEnrollment } from '@rayo/shared';
import { type FormEvent, useState } from 'react';
import { ApiError } from '../../api/client.ts';
import { errorMessage, errorMessageKey } from '../../api/error-messages.ts';
import { useValidateMfa } from '../../api/mfa.ts';
import { notifications } from '../../components/notifications.ts';
import { QrCode } from '../../components/QrCode.tsx';
import { saveBlob } from '../../components/save-blob.ts';
import { useTranslation } from '../../i18n/index.ts';

/** Groups of four characters are easier to read out and type into an authenticator. */
function grouped(secret: string): string {
  return secret.match(/.{1,4}/g)?.join(' ') ?? secret;
}

/**
 * Turning MFA on: the authenticator's QR code and key, the recovery codes (shown only now), and
 * the first code, which turns MFA on.
 */
export function MfaEnrollmentPanel({
  enrollment,
  onDone,
  onCancel,
}: {
  enrollment: MfaEnrollment;
  onDone: () => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const validate = useValidateMfa();
  const [code, setCode] = useState('');
  const [codeError, setCodeError] = useState<string | null>(null);
  const recoveryText = enrollment.recoveryCodes.join('\n');

  const wrongCode = validate.error instanceof ApiError && validate.error.code === 'WrongMfaCode';
  const fieldError = codeError ?? (wrongCode ? errorMessageKey('WrongMfaCode') : null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    validate.reset();
    if (!isMfaCodeShaped(code)) {
      setCodeError('mfa.errors.codeShape');
      return;
    }
    setCodeError(null);
    validate.mutate(code.trim(), {
      onSuccess: () => {
        notifications.show({ color: 'teal', message: t('mfa.settings.enabled') });
        onDone();
      },
    });
  };

  return (
    <form onSubmit={submit} noValidate aria-label={t('mfa.settings.setupTitle')}>
      <Stack gap="lg">
        <Stack gap="xs">
          <Title order={3} size="h5">
            {t('mfa.settings.scanTitle')}
          </Title>
          <Text size="sm" c="dimmed">
            {t('mfa.settings.scanHelp')}
          </Text>
          <QrCode value={enrollment.otpauthUri} alt={t('mfa.settings.qrAlt')} size={200} />
          <Text size="sm">{t('mfa.settings.keyHelp')}</Text>
          <Group gap="xs" wrap="nowrap">
            <Code fz="sm" data-testid="mfa-secret" style={{ wordBreak: 'break-all' }}>
              {grouped(enrollment.secret)}
            </Code>
            <CopyButton value={enrollment.secret} timeout={2000}>
              {({ copied, copy }) => (
                <Button size="compact-sm" variant="subtle" onClick={copy}>
                  {copied ? t('mfa.settings.copied') : t('mfa.settings.copyKey')}
                </Button>
              )}
            </CopyButton>
          </Group>
        </Stack>

        <Stack gap="xs">
          <Title order={3} size="h5">
            {t('mfa.settings.recoveryTitle')}
          </Title>
          <Text size="sm" c="dimmed">
            {t('mfa.settings.recoveryHelp')}
          </Text>
          <SimpleGrid cols={2} spacing={4} aria-label={t('mfa.settings.recoveryTitle')} component="ul" p={0} m={0}>
            {enrollment.recoveryCodes.map((recoveryCode) => (
              <Code key={recoveryCode} component="li" fz="sm" style={{ listStyle: 'none' }} ta="center">
                {recoveryCode}
              </Code>
            ))}
          </SimpleGrid>
          <Group gap="xs">
            <CopyButton value={recoveryText} timeout={2000}>
              {({ copied, copy }) => (
                <Button size="compact-sm" variant="light" onClick={copy}>
                  {copied ? t('mfa.settings.copied') : t('mfa.settings.copyCodes')}
                </Button>
              )}
            </CopyButton>
            <Button
              size="compact-sm"
              variant="light"
              onClick={() =>
                saveBlob(new Blob([`${recoveryText}\n`], { type: 'text/plain' }), 'rayo-recovery-codes.txt')
              }
            >
              {t('mfa.settings.downloadCodes')}
            </Button>
          </Group>
        </Stack>

        <Stack gap="xs">
          <Title order={3} size="h5" id="mfa-first-code">
            {t('mfa.settings.codeLabel')}
          </Title>
          {validate.isError && !wrongCode && (
            <Alert color="red" variant="light" role="alert">
              {errorMessage(t, validate.error)}
            </Alert>
          )}
          <TextInput
            aria-labelledby="mfa-first-code"
            description={t('mfa.settings.codeHelp')}
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={7}
            w={220}
            value={code}
            onChange={(event) => setCode(event.currentTarget.value)}
            error={fieldError && t(fieldError)}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={onCancel}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" loading={validate.isPending}>
              {t('mfa.settings.turnOn')}
            </Button>
          </Group>
        </Stack>
      </Stack>
    </form>
  );
}
