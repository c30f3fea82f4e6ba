import { Button, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import type { DonationInvoice } from '@rayo/shared';
import { IconBolt, IconCheck } from '@tabler/icons-react';
import { useInvoiceStatus } from '../../api/invoices.ts';
import { AwaitingPayment } from '../../components/AwaitingPayment.tsx';
import { mmss, useInvoiceCountdown } from '../../components/countdown.ts';
import { useFormatLocale } from '../../components/format-locale.ts';
import { LightningQr } from '../../components/LightningQr.tsx';
import { formatMsatAsSats } from '../../components/money-format.ts';
import { PaymentRequestActions } from '../../components/PaymentRequestActions.tsx';
import { useTranslation } from '../../i18n/index.ts';

/** The donation's invoice to pay, followed live until it is paid or runs out. */
export function DonationInvoicePanel({
  invoice,
  onPaid,
  onExpired,
  onBack,
}: {
  invoice: DonationInvoice;
  onPaid: () => void;
  onExpired: () => void;
  onBack: () => void;
}) {
  const { t } = useTranslation();
  const locale = useFormatLocale();
  const secondsLeft = useInvoiceCountdown(invoice.expiresAt, onExpired);
  useInvoiceStatus(invoice.id, (status) => {
    if (status === 'settled') onPaid();
    else if (status === 'expired' || status === 'cancelled') onExpired();
  });

  return (
    <Stack gap="md">
      <Text fz={28} fw={700} ta="center" data-testid="donation-invoice-amount">
        {formatMsatAsSats(invoice.amountMsat, locale)}
      </Text>
      <LightningQr paymentRequest={invoice.paymentRequest} alt={t('donations.page.invoiceAlt')} size={280} />
      <Text ta="center" size="sm" c="dimmed">
        {t('donations.page.scanInvoice')}
      </Text>
      <AwaitingPayment
        label={t('donations.page.waiting')}
        timeLeft={t('donations.page.expiresIn', { time: mmss(secondsLeft) })}
      />
      <PaymentRequestActions
        value={invoice.paymentRequest.toLowerCase()}
        copyLabel={t('donations.page.copyInvoice')}
        copiedLabel={t('donations.page.invoiceCopied')}
      >
        <Button
          component="a"
          href={`lightning:${invoice.paymentRequest}`}
          variant="default"
          leftSection={<IconBolt size={18} />}
        >
          {t('checkout.openWallet')}
        </Button>
      </PaymentRequestActions>
      <Button variant="subtle" onClick={onBack}>
        {t('donations.page.back')}
      </Button>
    </Stack>
  );
}

/** The donor's thank-you once the invoice is paid. */
export function DonationThanks({
  invoice,
  merchant,
  accent,
  onAgain,
}: {
  invoice: DonationInvoice;
  merchant: string;
  accent: string | null;
  onAgain: () => void;
}) {
  const { t } = useTranslation();
  const locale = useFormatLocale();
  return (
    <Stack align="center" gap="md" py="lg" role="status" aria-live="polite">
      <ThemeIcon size={88} radius={88} color={accent ?? 'green'} variant="filled">
        <IconCheck size={56} stroke={3} />
      </ThemeIcon>
      <Title order={2} ta="center">
        {t('donations.page.thankYou')}
      </Title>
      <Text ta="center" style={{ overflowWrap: 'anywhere' }}>
        {t('donations.page.thankYouText', { amount: formatMsatAsSats(invoice.amountMsat, locale), merchant })}
      </Text>
      <Button variant="default" onClick={onAgain}>
        {t('donations.page.again')}
      </Button>
    </Stack>
  );
}
