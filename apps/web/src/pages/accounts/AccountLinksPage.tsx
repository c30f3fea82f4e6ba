import { Alert, Anchor, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { IconArrowLeft, IconLink } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { useAccountList } from '../../api/accounts.ts';
import { errorMessage } from '../../api/error-messages.ts';
import { useAccountPaymentLinks } from '../../api/payment-links.ts';
import { ListStatus } from '../../components/ListStatus.tsx';
import { PaymentLinkList } from '../integrations/PaymentLinkList.tsx';

/** `/accounts/:id/links` (SPEC §2 account-links): the payment links of every virtual BPT selling for the account. */
export function AccountLinksPage() {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  const accounts = useAccountList();
  const account = accounts.data?.find((candidate) => candidate.id === id);
  const links = useAccountPaymentLinks(id);

  return (
    <>
      <Anchor component={Link} to="/accounts" size="sm">
        <Group gap={4} component="span">
          <IconArrowLeft size={16} />
          {t('paymentLinks.backToAccounts')}
        </Group>
      </Anchor>
      <Title order={1} size="h2" mt="xs" mb="lg" style={{ overflowWrap: 'anywhere' }}>
        {account ? t('paymentLinks.titleOf', { name: account.name }) : t('paymentLinks.title')}
      </Title>
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
          <ListStatus
            query={links}
            empty={{
              icon: <IconLink size={32} />,
              title: t('paymentLinks.emptyTitle'),
              text: t('paymentLinks.emptyAccountText'),
            }}
          />
          {links.data && links.data.length > 0 && (
            <PaymentLinkList links={links.data} deletable={false} showVirtualBpt />
          )}
        </Stack>
      )}
    </>
  );
}
