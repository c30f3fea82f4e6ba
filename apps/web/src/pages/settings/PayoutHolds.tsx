import { Alert, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { canChangeOrganization, type PayoutHold } from '@rayo/shared';
import { useState } from 'react';
import { errorMessage } from '../../api/error-messages.ts';
import { useMfaStatus } from '../../api/mfa.ts';
import { useCancelDestinationChange } from '../../api/payouts.ts';
import { useDateTimeFormat } from '../../components/date-time.ts';
import { notifications } from '../../components/notifications.ts';
import { useTranslation } from '../../i18n/index.ts';
import { useSession } from '../../session/use-session.ts';
import { MfaCodeModal } from './MfaCodeModal.tsx';

/**
 * Why payouts wait (docs/security.md "Payout destinations"): each destination that changed and
 * is not verified yet, since when and until when; admins may cancel the change, which puts the
 * destination from before back.
 */
export function PayoutHolds({ holds }: { holds: readonly PayoutHold[] }) {
  const { t } = useTranslation();
  const date = useDateTimeFormat();
  const editable = canChangeOrganization(useSession().role);
  const hasMfa = useMfaStatus().data?.hasMfa ?? false;
  const cancel = useCancelDestinationChange();
  const [confirming, setConfirming] = useState<PayoutHold | null>(null);

  const what = (hold: PayoutHold) => t(`payouts.holds.destination.${hold.kind}`);
  const send = (hold: PayoutHold, mfaCode?: string) => {
    setConfirming(null);
    cancel.mutate(
      { changeId: hold.changeId, ...(mfaCode ? { mfaCode } : {}) },
      {
        onSuccess: () =>
          notifications.show({ color: 'teal', message: t('payouts.holds.cancelled', { what: what(hold) }) }),
      },
    );
  };

  const open = (hold: PayoutHold) => {
    cancel.reset();
    setConfirming(hold);
  };

  return (
    <Stack gap="sm" data-testid="payout-holds">
      {holds.map((hold) => (
        <Alert key={hold.changeId} color="yellow" variant="light" title={t(`payouts.holds.title.${hold.kind}`)}>
          <Stack gap="xs">
            <Text size="sm">
              {hold.releaseAt
                ? t('payouts.holds.until', {
                    what: what(hold),
                    changed: date(hold.changedAt),
                    release: date(hold.releaseAt),
                  })
                : t('payouts.holds.unmailed', { what: what(hold), changed: date(hold.changedAt) })}
            </Text>
            {editable && (
              <Group>
                <Button size="xs" variant="default" loading={cancel.isPending} onClick={() => open(hold)}>
                  {t('payouts.holds.cancel')}
                </Button>
              </Group>
            )}
          </Stack>
        </Alert>
      ))}
      {cancel.isError && (
        <Alert color="red" variant="light" role="alert">
          {errorMessage(t, cancel.error)}
        </Alert>
      )}
      {confirming && hasMfa && (
        <MfaCodeModal
          title={t('payouts.holds.confirmTitle')}
          submitLabel={t('payouts.holds.confirm')}
          loading={cancel.isPending}
          onSubmit={(code) => send(confirming, code)}
          onClose={() => setConfirming(null)}
        />
      )}
      {/* Kept mounted, so that Mantine gives the focus back to the button that opened it. */}
      <Modal
        opened={confirming !== null && !hasMfa}
        onClose={() => setConfirming(null)}
        title={t('payouts.holds.confirmTitle')}
        centered
      >
        {confirming && (
          <Stack>
            <Text size="sm">{t('payouts.holds.confirmText', { what: what(confirming) })}</Text>
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setConfirming(null)}>
                {t('common.cancel')}
              </Button>
              <Button color="red" loading={cancel.isPending} onClick={() => send(confirming)}>
                {t('payouts.holds.confirm')}
              </Button>
            </Group>
          </Stack>
        )}
      </Modal>
    </Stack>
  );
}
