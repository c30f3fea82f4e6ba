import { Alert, Group, Paper, Skeleton, Stack, Switch, Text, Title } from '@mantine/core';
import type { MfaEnrollment } from '@rayo/shared';
import { useState } from 'react';
import { errorMessage } from '../../api/error-messages.ts';
import { useDisableMfa, useEnableMfa, useMfaStatus } from '../../api/mfa.ts';
import { LoadError } from '../../components/LoadError.tsx';
import { notifications } from '../../components/notifications.ts';
import { useTranslation } from '../../i18n/index.ts';
import { DisableMfaModal } from './DisableMfaModal.tsx';
import { MfaEnrollmentPanel } from './MfaEnrollmentPanel.tsx';

/**
 * Settings → MFA. The switch shows the server's `hasMfa` (SPEC §4); turning it on walks through
 * the setup, turning it off asks for a code. A failed disable puts the switch back on and says
 * 'Error disabling MFA' (SPEC §8).
 */
export function MfaSection() {
  const { t } = useTranslation();
  const status = useMfaStatus();
  const enable = useEnableMfa();
  const disable = useDisableMfa();
  const [enrollment, setEnrollment] = useState<MfaEnrollment | null>(null);
  const [askingForCode, setAskingForCode] = useState(false);
  const hasMfa = status.data?.hasMfa ?? false;
  // The platform requires it (BACKOFFICE_MFA_REQUIRED): once on, it stays on, as the server insists.
  const locked = hasMfa && status.data?.required === true;

  // While the user is turning it off the switch shows off; it is on while a setup is under way.
  const checked = askingForCode || disable.isPending ? false : hasMfa || enrollment !== null || enable.isPending;

  const toggle = (on: boolean) => {
    enable.reset();
    disable.reset();
    if (on) enable.mutate(undefined, { onSuccess: setEnrollment });
    else if (hasMfa) setAskingForCode(true);
    else setEnrollment(null);
  };

  const turnOff = (code: string) => {
    setAskingForCode(false);
    disable.mutate(code, {
      onSuccess: () => notifications.show({ color: 'teal', message: t('mfa.settings.disabled') }),
    });
  };

  return (
    <Paper withBorder p={{ base: 'md', sm: 'xl' }} maw={560} component="section" aria-labelledby="settings-mfa">
      <Stack gap="md">
        <Group justify="space-between" align="flex-start" wrap="nowrap">
          <div>
            <Title order={2} size="h4" id="settings-mfa">
              {t('mfa.settings.title')}
            </Title>
            <Text c="dimmed" size="sm" mt={4}>
              {t('mfa.settings.description')}
            </Text>
          </div>
          {status.isPending ? (
            <Skeleton w={40} h={24} radius="xl" />
          ) : (
            <Switch
              size="md"
              aria-label={t('mfa.settings.switch')}
              checked={checked}
              disabled={locked || status.isError || enable.isPending || disable.isPending}
              onChange={(event) => toggle(event.currentTarget.checked)}
            />
          )}
        </Group>
        {status.data?.required && !hasMfa && (
          <Alert color="yellow" variant="light" role="status">
            {t('mfa.settings.turnOn')}
          </Alert>
        )}
        {locked && (
          <Text size="sm" c="dimmed">
            {t('mfa.errors.cannotTurnOff')}
          </Text>
        )}
        {status.isError && <LoadError error={status.error} onRetry={() => status.refetch()} />}
        {!status.isPending && !status.isError && (
          <Text size="sm" fw={500} c={hasMfa ? 'teal' : 'dimmed'}>
            {t(hasMfa ? 'mfa.settings.on' : enrollment ? 'mfa.settings.pending' : 'mfa.settings.off')}
          </Text>
        )}
        {enable.isError && (
          <Alert color="red" variant="light" role="alert">
            {errorMessage(t, enable.error)}
          </Alert>
        )}
        {disable.isError && (
          <Alert color="red" variant="light" role="alert" title={t('errors.mfaDisableFailed')}>
            {errorMessage(t, disable.error)}
          </Alert>
        )}
        {enrollment && !hasMfa && (
          <MfaEnrollmentPanel
            enrollment={enrollment}
            onDone={() => setEnrollment(null)}
            onCancel={() => setEnrollment(null)}
          />
        )}
      </Stack>
      {askingForCode && (
        <DisableMfaModal loading={disable.isPending} onSubmit={turnOff} onClose={() => setAskingForCode(false)} />
      )}
    </Paper>
  );
}
