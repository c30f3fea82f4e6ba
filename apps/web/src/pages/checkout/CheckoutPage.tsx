import { Alert, Loader, Stack, Tabs, Text } from '@mantine/core';
import type { PublicCheckout } from '@rayo/shared';
import { IconBolt, IconClockX, IconCurrencyBitcoin } from '@tabler/icons-react';
import { useDeferredValue } from 'react';
import { useParams } from 'react-router';
import { useCheckoutStatus, usePublicCheckout } from '../../api/checkouts.ts';
import { ApiError } from '../../api/client.ts';
import { publicErrorMessage } from '../../api/error-messages.ts';
import { BrandedPanel } from '../../components/BrandedPanel.tsx';
import { BrandedTitle } from '../../components/BrandedTitle.tsx';
import { FormatCountryContext } from '../../components/format-locale.ts';
import { useTranslation } from '../../i18n/index.ts';
import { useOrganizationLanguage } from '../../session/use-organization-language.ts';
import { CheckoutPaid } from './CheckoutPaid.tsx';
import { LightningPayment } from './LightningPayment.tsx';
import { OnchainPayment, OnchainState } from './OnchainPayment.tsx';
import { OrderSummary } from './OrderSummary.tsx';
import { UnderpaidSummary } from './UnderpaidSummary.tsx';

/**
 * `/ecommerce/checkout/:id` (SPEC §2 checkout pages): the payment request, the order, and the paid
 * confirmation, live. Anyone with the link opens it signed out; of the merchant it shows only
 * the name, logo and colour.
 */
export function CheckoutPage() {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  const checkout = usePublicCheckout(id);
  useOrganizationLanguage(checkout.data?.language);
  // Every status change (and every reconnect) reads the checkout again: it carries what to show.
  useCheckoutStatus(checkout.data ? id : null, () => void checkout.refetch());
  const notFound =
    checkout.error instanceof ApiError && (checkout.error.status === 404 || checkout.error.status === 400);
  // Drawn in a transition, which React renders in slices of a few milliseconds: rendered as the
  // answer lands, the page was one long task that kept a phone from responding (docs/benchmarks.md).
  const shown = useDeferredValue(checkout.data);

  return (
    <Stack maw={480} w="100%" mx="auto" gap="md">
      <BrandedTitle
        name={shown?.merchant.name ?? t('pages.checkout')}
        branding={shown?.merchant}
        logoTestId="terminal-logo"
      />
      {!shown && !checkout.isError && <Loader aria-label={t('common.loading')} />}
      {checkout.isError && (
        <Alert color={notFound ? 'yellow' : 'red'} role="alert">
          {notFound ? t('checkout.notFound') : publicErrorMessage(t, checkout.error)}
        </Alert>
      )}
      {shown && (
        <FormatCountryContext.Provider value={shown.countryCode}>
          <Checkout checkout={shown} onChanged={() => void checkout.refetch()} />
        </FormatCountryContext.Provider>
      )}
    </Stack>
  );
}

function Checkout({ checkout, onChanged }: { checkout: PublicCheckout; onChanged: () => void }) {
  const { t } = useTranslation();
  const accent = checkout.merchant.accentColor;
  return (
    <BrandedPanel accent={accent} data-testid="checkout-panel">
      <Stack gap="lg">
        <OrderSummary checkout={checkout} />
        {checkout.underpaid && <UnderpaidSummary underpaid={checkout.underpaid} />}
        {checkout.status === 'paid' && <CheckoutPaid checkout={checkout} accent={accent} onRecheck={onChanged} />}
        {checkout.status === 'paid' && checkout.paidVia === 'onchain' && checkout.onchain && (
          <OnchainState onchain={checkout.onchain} />
        )}
        {checkout.status === 'expired' && (
          <Alert color="gray" icon={<IconClockX size={20} />} title={t('checkout.expired')} role="status">
            {t('checkout.expiredText')}
          </Alert>
        )}
        {(checkout.status === 'awaiting_payment' || checkout.status === 'processing') && (
          // A payment seen on-chain opens on its tab, so a returning payer sees the confirmations.
          <Tabs
            defaultValue={checkout.status === 'processing' && checkout.onchain ? 'onchain' : 'lightning'}
            keepMounted={false}
          >
            <Tabs.List grow mb="md" aria-label={t('checkout.method')}>
              <Tabs.Tab value="lightning" leftSection={<IconBolt size={16} />}>
                {t('checkout.lightning')}
              </Tabs.Tab>
              {checkout.onchain && (
                <Tabs.Tab value="onchain" leftSection={<IconCurrencyBitcoin size={16} />}>
                  {t('checkout.onchain')}
                </Tabs.Tab>
              )}
            </Tabs.List>
            <Tabs.Panel value="lightning">
              {checkout.invoice ? (
                <LightningPayment invoice={checkout.invoice} expiresAt={checkout.expiresAt} onTimeUp={onChanged} />
              ) : (
                <Text c="dimmed" ta="center" role="status">
                  {t('checkout.processing')}
                </Text>
              )}
            </Tabs.Panel>
            {checkout.onchain && (
              <Tabs.Panel value="onchain">
                <OnchainPayment onchain={checkout.onchain} />
              </Tabs.Panel>
            )}
          </Tabs>
        )}
      </Stack>
    </BrandedPanel>
  );
}
