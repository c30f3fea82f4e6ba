import { Button } from '@mantine/core';
import { IconCash } from '@tabler/icons-react';
import { useState } from 'react';
import { usePayTransactions } from '../../api/back-office-payments.ts';
import { errorMessage } from '../../api/error-messages.ts';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { notifications } from '../../components/notifications.ts';
import { useTranslation } from '../../i18n/index.ts';

/**
 * SPEC §4 mark as paid, from an organization's unpaid list or a country report: the button,
 * the confirmation saying what will be paid, the call, and the notice of how many were paid.
 * Nothing selected, nothing to press.
 */
export function MarkPaidButton({
  transactionIds,
  confirmMessage,
  onPaid,
}: {
  transactionIds: readonly string[];
  confirmMessage: string;
  onPaid: () => void;
}) {
  const { t } = useTranslation();
  const pay = usePayTransactions();
  const [confirming, setConfirming] = useState(false);
  const markPaid = () => {
    pay.mutate([...transactionIds], {
      onSuccess: (paid) => {
        setConfirming(false);
        onPaid();
        notifications.show({ color: 'teal', message: t('backOffice.payments.paid', { count: paid }) });
      },
    });
  };
  return (
    <>
      <Button
        leftSection={<IconCash size={16} />}
        disabled={transactionIds.length === 0}
        onClick={() => {
          pay.reset();
          setConfirming(true);
        }}
      >
        {t('backOffice.payments.markPaid')}
      </Button>
      <ConfirmDialog
        opened={confirming}
        title={t('backOffice.payments.confirmTitle')}
        message={confirmMessage}
        confirmLabel={t('backOffice.payments.markPaid')}
        loading={pay.isPending}
        error={pay.isError ? errorMessage(t, pay.error) : null}
        onConfirm={markPaid}
        onClose={() => setConfirming(false)}
      />
    </>
  );
}
