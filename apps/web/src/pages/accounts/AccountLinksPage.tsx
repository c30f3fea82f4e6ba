import { Alert, Loader, Stack, Text } from '@mantine/core';
import { useParams } from 'react-router';
import { useAccountList } from '../../api/accounts.ts';
import { errorMessage } from '../../api/error-messages.ts';
import { useAccountPaymentLinks } from '../../api/payment-links.ts';
import { useTranslation } from '../../i18n/index.ts';
import { PaymentLinkList } from '../integrations/PaymentLinkList.tsx';
import { PaymentLinksHeading } from '../integrations/PaymentLinksHeading.tsx';

/** `/accounts/:id/links` (SPEC §2 account-links): the payment links of every virtual BPT selling for the account. */
export function AccountLinksPage() {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  const accounts = useAccountList();
  const account = accounts.data?.find((candidate) => candidate.id === id);
  const links = useAccountPaymentLinks(id);

  return (
    <>
      <PaymentLinksHeading back={{ to: '/accounts', label: t('paymentLinks.backToAccounts') }} name={account?.name} />
      {accounts.isPending && <Loader aria-label={t('common.loading')} />}
      {accounts.data && !account && (
        <Alert color="yellow" role="alert">
          {t('paymentLinks.accountNotFound')}
        </Alert>
      )}
      {accounts.isError && (
        <Alert color="red" role="alert">
          {errorMessage(t, accounts.error)}
        </Alert>
      )}
      {account && (
        <Stack gap="sm">
          <Text size="sm" c="dimmed">
            {t('paymentLinks.accountIntro')}
          </Text>
          <PaymentLinkList
            query={links}
            emptyText={t('paymentLinks.emptyAccountText')}
            deletable={false}
            showVirtualBpt
          />
        </Stack>
      )}
    </>
  );
}
