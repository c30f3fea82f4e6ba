import { Alert, Paper, Skeleton, Stack, Switch, Text, Title } from '@mantine/core';
import { canChangeOrganization } from '@rayo/shared';
import { useState } from 'react';
import { useCheckoutProtection, useSetCheckoutProtection } from '../../api/checkout-protection.ts';
import { errorMessage } from '../../api/error-messages.ts';
import { useMfaStatus } from '../../api/mfa.ts';
import { LoadError } from '../../components/LoadError.tsx';
import { notifications } from '../../components/notifications.ts';
import { useTranslation } from '../../i18n/index.ts';
import { useSession } from '../../session/use-session.ts';
import { MfaCodeModal } from './MfaCodeModal.tsx';

/**
 * Settings → checkout protection (SPEC §2; DESIGN §9): whether e-commerce checkouts may only be
 * created server-to-server, so that a shopper cannot change the amount. Managers see it read-only.
 */
export function CheckoutProtectionSection() {
  const { t } = useTranslation();
  const editable = canChangeOrganization(useSession().role);
  const setting = useCheckoutProtection();
  const save = useSetCheckoutProtection();
  const hasMfa = useMfaStatus().data?.hasMfa ?? false;
  const [askingForCode, setAskingForCode] = useState<boolean | null>(null);

  const send = (enabled: boolean, mfaCode?: string) => {
    setAskingForCode(null);
    save.mutate(
      { enabled, ...(mfaCode ? { mfaCode } : {}) },
      {
        onSuccess: () =>
          notifications.show({
            color: 'teal',
            message: t(enabled ? 'checkoutProtection.on' : 'checkoutProtection.off'),
          }),
      },
    );
  };

  const toggle = (enabled: boolean) => {
    save.reset();
    if (hasMfa) setAskingForCode(enabled);
    else send(enabled);
  };

  return (
    <Paper withBorder p={{ base: 'md', sm: 'xl' }} maw={560} component="section" aria-labelledby="settings-checkout">
      <Stack gap="md">
        <Title order={2} size="h4" id="settings-checkout">
          {t('checkoutProtection.title')}
        </Title>
        {setting.isPending && <Skeleton h={48} />}
        {setting.isError && <LoadError error={setting.error} onRetry={() => setting.refetch()} />}
        {setting.data && (
          <Switch
            label={t('checkoutProtection.label')}
            description={t('checkoutProtection.description')}
            checked={setting.data.enabled}
            disabled={!editable || save.isPending}
            onChange={(event) => toggle(event.currentTarget.checked)}
          />
        )}
        {save.isError && (
          <Alert color="red" variant="light" role="alert">
            {errorMessage(t, save.error)}
          </Alert>
        )}
        {!editable && (
          <Text size="sm" c="dimmed">
            {t('checkoutProtection.readOnly')}
          </Text>
        )}
      </Stack>
      {askingForCode !== null && (
        <MfaCodeModal
          title={t('checkoutProtection.mfaTitle')}
          submitLabel={t('checkoutProtection.confirm')}
          loading={save.isPending}
          onSubmit={(code) => send(askingForCode, code)}
          onClose={() => setAskingForCode(null)}
        />
      )}
    </Paper>
  );
}
