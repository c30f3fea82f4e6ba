import { Alert, Button, Checkbox } from '@mantine/core';
import { IconCash } from '@tabler/icons-react';
import { useState } from 'react';
import { usePayTransactions } from '../../api/back-office-payments.ts';
import { errorMessage } from '../../api/error-messages.ts';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { notifications } from '../../components/notifications.ts';
import { useTranslation } from '../../i18n/index.ts';

/** An organization of the selection that has entered no bank account. */
export type OrganizationWithoutBank = { id: string; name: string };

/**
 * SPEC §4 mark as paid, from an organization's unpaid list or a country report: the button,
 * the confirmation saying what will be paid, the call, and the notice of how many were paid.
 * Nothing selected, nothing to press. Fiat for an organization without a bank account had
 * nowhere to go, so the confirmation names it and needs a box checked saying it was paid
 * another way.
 */
export function MarkPaidButton({
  transactionIds,
  confirmMessage,
  withoutBankAccount,
  onPaid,
}: {
  transactionIds: readonly string[];
  confirmMessage: string;
  withoutBankAccount: readonly OrganizationWithoutBank[];
  onPaid: () => void;
}) {
  const { t } = useTranslation();
  const pay = usePayTransactions();
  const [confirming, setConfirming] = useState(false);
  const [paidElsewhere, setPaidElsewhere] = useState(false);
  const names = withoutBankAccount.map((organization) => organization.name).join(', ');
  // The list reloads after a refusal: what was checked may be paid by now, leaving nothing.
  const nothingLeft = transactionIds.length === 0;
  const markPaid = () => {
    pay.mutate(
      { ids: [...transactionIds], withoutBankAccount: withoutBankAccount.map((organization) => organization.id) },
      {
        onSuccess: (paid) => {
          setConfirming(false);
          onPaid();
          notifications.show({ color: 'teal', message: t('backOffice.payments.paid', { count: paid }) });
        },
      },
    );
  };
  return (
    <>
      <Button
        leftSection={<IconCash size={16} />}
        disabled={nothingLeft}
        onClick={() => {
          pay.reset();
          setPaidElsewhere(false);
          setConfirming(true);
        }}
      >
        {t('backOffice.payments.markPaid')}
      </Button>
      <ConfirmDialog
        opened={confirming}
        title={t('backOffice.payments.confirmTitle')}
        message={nothingLeft ? t('backOffice.payments.nothingLeft') : confirmMessage}
        confirmLabel={t('backOffice.payments.markPaid')}
        loading={pay.isPending}
        confirmDisabled={nothingLeft || (withoutBankAccount.length > 0 && !paidElsewhere)}
        error={pay.isError ? errorMessage(t, pay.error) : null}
        onConfirm={markPaid}
        onClose={() => setConfirming(false)}
      >
        {!nothingLeft && withoutBankAccount.length > 0 && (
          <Alert color="yellow" title={t('backOffice.payments.noBankTitle', { count: withoutBankAccount.length })}>
            <Checkbox
              label={t('backOffice.payments.paidElsewhere', { names, count: withoutBankAccount.length })}
              description={t('backOffice.payments.noBankText', { names, count: withoutBankAccount.length })}
              checked={paidElsewhere}
              onChange={(event) => setPaidElsewhere(event.currentTarget.checked)}
            />
          </Alert>
        )}
      </ConfirmDialog>
    </>
  );
}
