import { Button, Stack, Text } from '@mantine/core';
import type { PublicCheckout } from '@rayo/shared';
import { IconBolt } from '@tabler/icons-react';
import { AwaitingPayment } from '../../components/AwaitingPayment.tsx';
import { mmss, useInvoiceCountdown, useSecondsLeft } from '../../components/countdown.ts';
import { LightningQr } from '../../components/LightningQr.tsx';
import { PaymentRequestActions } from '../../components/PaymentRequestActions.tsx';
import { useTranslation } from '../../i18n/index.ts';

type Invoice = NonNullable<PublicCheckout['invoice']>;

/**
 * Paying by Lightning: the invoice's QR code, a copy of it and a wallet link. A store checkout
 * counts down to its end; a payment link's invoice is replaced when it runs out (`onTimeUp`
 * reads the checkout again, which issues the next one).
 */
export function LightningPayment({
  invoice,
  expiresAt,
  onTimeUp,
}: {
  invoice: Invoice;
  expiresAt: string | null;
  onTimeUp: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Stack gap="md">
      <InvoiceTimer expiresAt={invoice.expiresAt} onTimeUp={onTimeUp} />
      <LightningQr paymentRequest={invoice.paymentRequest} alt={t('checkout.qrAlt')} size={300} />
      <Text ta="center" size="sm" c="dimmed">
        {t('checkout.scan')}
      </Text>
      <AwaitingPayment
        label={t('checkout.awaiting')}
        timeLeft={expiresAt && <Countdown deadline={expiresAt} />}
        timeLeftTestId="checkout-countdown"
        data-testid="checkout-status"
      />
      <PaymentRequestActions
        value={invoice.paymentRequest.toLowerCase()}
        copyLabel={t('checkout.copyInvoice')}
        copiedLabel={t('checkout.invoiceCopied')}
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
    </Stack>
  );
}

function Countdown({ deadline }: { deadline: string }) {
  const { t } = useTranslation();
  const secondsLeft = useSecondsLeft(deadline);
  return t('checkout.expiresIn', { time: mmss(secondsLeft) });
}

/**
 * Calls `onTimeUp` when the invoice runs out. Its own component, so that the second it ticks
 * re-renders nothing else: in the panel, it drew the whole panel again every second.
 */
function InvoiceTimer({ expiresAt, onTimeUp }: { expiresAt: string; onTimeUp: () => void }) {
  useInvoiceCountdown(expiresAt, onTimeUp);
  return null;
}
