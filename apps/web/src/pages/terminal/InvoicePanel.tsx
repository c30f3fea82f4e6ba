import { Button, Divider, Stack, Text } from '@mantine/core';
import { type Invoice, type InvoiceStatus, parseAmount, SATS } from '@rayo/shared';
import { useEffect, useEffectEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AwaitingPayment } from '../../components/AwaitingPayment.tsx';
import { useFormatLocale } from '../../components/format-locale.ts';
import { LightningQr } from '../../components/LightningQr.tsx';
import { formatMoney, formatSats } from '../../components/money-format.ts';
import { PaymentRequestActions } from '../../components/PaymentRequestActions.tsx';
import { CardPayment } from './CardPayment.tsx';
import { msatToSats } from './money.ts';

/** Whole seconds until `deadline`, ticking every second; never below zero. */
export function useSecondsLeft(deadline: string): number {
  const end = Date.parse(deadline);
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  return Math.max(0, Math.ceil((end - now) / 1000));
}

export function mmss(seconds: number): string {
  return `${String(Math.floor(seconds / 60)).padStart(2, '0')}:${String(seconds % 60).padStart(2, '0')}`;
}

/** The amount of an invoice in its currency, and in sats when that is not the same thing. */
export function InvoiceAmount({ invoice, size = 32 }: { invoice: Invoice; size?: number }) {
  const locale = useFormatLocale();
  const total = parseAmount(invoice.fiatTotal, invoice.currency);
  return (
    <Stack gap={0} align="center">
      <Text fz={size} fw={700} lh={1.2} ta="center">
        {formatMoney(total, invoice.currency, locale)}
      </Text>
      {invoice.currency !== SATS && (
        <Text c="inherit" opacity={0.75} ta="center">
          {formatSats(msatToSats(invoice.amountMsat), locale)}
        </Text>
      )}
    </Stack>
  );
}

/** A pending invoice: its QR code to scan, a copy of it, the time left, and card payment. */
export function InvoicePanel({
  invoice,
  onStatus,
  onTimeUp,
  onCancel,
}: {
  invoice: Invoice;
  onStatus: (status: InvoiceStatus, invoiceId: string) => void;
  onTimeUp: () => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const secondsLeft = useSecondsLeft(invoice.expiresAt);
  const timeUp = useEffectEvent(onTimeUp);
  useEffect(() => {
    if (secondsLeft === 0) timeUp();
  }, [secondsLeft]);

  return (
    <Stack gap="md">
      <InvoiceAmount invoice={invoice} />
      <LightningQr paymentRequest={invoice.paymentRequest} alt={t('terminal.qrAlt')} />
      <Text ta="center" size="sm" c="dimmed">
        {t('terminal.scanToPay')}
      </Text>
      <AwaitingPayment label={t('terminal.waiting')} timeLeft={t('terminal.expiresIn', { time: mmss(secondsLeft) })} />
      <PaymentRequestActions
        value={invoice.paymentRequest.toLowerCase()}
        copyLabel={t('terminal.copyInvoice')}
        copiedLabel={t('terminal.invoiceCopied')}
      >
        <Button variant="default" onClick={onCancel}>
          {t('terminal.cancel')}
        </Button>
      </PaymentRequestActions>
      <Divider />
      <CardPayment invoiceId={invoice.id} onStatus={onStatus} />
    </Stack>
  );
}
