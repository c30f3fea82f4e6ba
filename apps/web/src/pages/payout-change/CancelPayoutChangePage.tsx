import { Alert, Anchor, Button, Stack } from '@mantine/core';
import type { PayoutDestinationKind } from '@rayo/shared';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { ApiError } from '../../api/client.ts';
import { errorMessageKey } from '../../api/error-messages.ts';
import { cancelDestinationChangeByLink } from '../../api/payouts.ts';
import { AuthHeading } from '../../components/AuthHeading.tsx';
import { useTranslation } from '../../i18n/index.ts';

/**
 * The page the mail about a changed payout destination links to. It cancels only when asked:
 * mail scanners open links, and opening one must change nothing.
 */
export function CancelPayoutChangePage() {
  const { t } = useTranslation();
  const [searchParams] = useSearchParams();
  const token = searchParams.get('token') ?? '';
  const [error, setError] = useState<string | null>(token ? null : 'errors.invalidCode');
  const [cancelled, setCancelled] = useState<PayoutDestinationKind | null>(null);
  const [sending, setSending] = useState(false);

  const cancel = async () => {
    setError(null);
    setSending(true);
    try {
      setCancelled((await cancelDestinationChangeByLink(token)).kind);
    } catch (failure) {
      setError(errorMessageKey(failure instanceof ApiError ? failure.code : 'Default'));
    } finally {
      setSending(false);
    }
  };

  return (
    <Stack gap="md">
      <AuthHeading
        title={t('cancelPayoutChange.title')}
        subtitle={t('cancelPayoutChange.subtitle')}
        error={error && t(error)}
      />
      {cancelled ? (
        <Alert color="teal" variant="light" role="status">
          {t('payouts.holds.cancelled', { what: t(`payouts.holds.destination.${cancelled}`) })}
        </Alert>
      ) : (
        <Button color="red" fullWidth size="md" loading={sending} disabled={!token} onClick={cancel}>
          {t('cancelPayoutChange.cancel')}
        </Button>
      )}
      <Anchor component={Link} to="/login" size="sm" ta="center">
        {t('checkEmail.toLogin')}
      </Anchor>
    </Stack>
  );
}
