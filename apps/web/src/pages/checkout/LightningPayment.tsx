import { Button, CopyButton, Group, Loader, SimpleGrid, Stack, Text } from '@mantine/core';
import type { PublicCheckout } from '@rayo/shared';
import { IconBolt, IconCheck, IconCopy } from '@tabler/icons-react';
import { useEffect, useEffectEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { LightningQr } from '../../components/LightningQr.tsx';
import { mmss, useSecondsLeft } from '../terminal/InvoicePanel.tsx';

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
  const invoiceSecondsLeft = useSecondsLeft(invoice.expiresAt);
  const timeUp = useEffectEvent(onTimeUp);
  useEffect(() => {
    if (invoiceSecondsLeft === 0) timeUp();
  }, [invoiceSecondsLeft]);

  return (
    <Stack gap="md">
      <LightningQr paymentRequest={invoice.paymentRequest} alt={t('checkout.qrAlt')} size={300} />
      <Text ta="center" size="sm" c="dimmed">
        {t('checkout.scan')}
      </Text>
      <Group justify="center" gap="xs" role="status" data-testid="checkout-status">
        <Loader size="xs" type="dots" />
        <Text size="sm">{t('checkout.awaiting')}</Text>
        {expiresAt && <Countdown deadline={expiresAt} />}
      </Group>
      <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="xs">
        <CopyButton value={invoice.paymentRequest.toLowerCase()} timeout={2000}>
          {({ copied, copy }) => (
            <Button
              variant="light"
              color={copied ? 'teal' : undefined}
              leftSection={copied ? <IconCheck size={18} /> : <IconCopy size={18} />}
              onClick={copy}
            >
              {t(copied ? 'checkout.invoiceCopied' : 'checkout.copyInvoice')}
            </Button>
          )}
        </CopyButton>
        <Button
          component="a"
          href={`lightning:${invoice.paymentRequest}`}
          variant="default"
          leftSection={<IconBolt size={18} />}
        >
          {t('checkout.openWallet')}
        </Button>
      </SimpleGrid>
    </Stack>
  );
}

function Countdown({ deadline }: { deadline: string }) {
  const { t } = useTranslation();
  const secondsLeft = useSecondsLeft(deadline);
  return (
    <Text size="sm" c="dimmed" ff="monospace" data-testid="checkout-countdown">
      {t('checkout.expiresIn', { time: mmss(secondsLeft) })}
    </Text>
  );
}
