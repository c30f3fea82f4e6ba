import { Button, Code, Group, Loader, Stack, Text, ThemeIcon } from '@mantine/core';
import type { PublicCheckoutOnchain } from '@rayo/shared';
import { IconAlertTriangle, IconCheck, IconCurrencyBitcoin } from '@tabler/icons-react';
import { useFormatLocale } from '../../components/format-locale.ts';
import { formatSats } from '../../components/money-format.ts';
import { PaymentRequestActions } from '../../components/PaymentRequestActions.tsx';
import { QrCode } from '../../components/QrCode.tsx';
import { useTranslation } from '../../i18n/index.ts';

/** Satoshis as BTC with all eight decimals, exactly (no float). */
function satsToBtc(sats: number, locale: string): string {
  const value = BigInt(sats);
  const text = `${value / 100_000_000n}.${(value % 100_000_000n).toString().padStart(8, '0')}`;
  return new Intl.NumberFormat(locale, { minimumFractionDigits: 8, maximumFractionDigits: 8 }).format(
    text as Intl.StringNumericLiteral,
  );
}

/**
 * Where an on-chain payment stands (SPEC §9): awaiting payment, confirming n/4, confirmed at 4,
 * or underpaid with what is missing.
 */
export function OnchainState({ onchain }: { onchain: PublicCheckoutOnchain }) {
  const { t } = useTranslation();
  const locale = useFormatLocale();
  const { state } = onchain;
  const icon =
    state === 'confirmed' ? (
      <ThemeIcon size="sm" radius="xl" color="teal">
        <IconCheck size={14} />
      </ThemeIcon>
    ) : state === 'underpaid' ? (
      <ThemeIcon size="sm" radius="xl" color="orange">
        <IconAlertTriangle size={14} />
      </ThemeIcon>
    ) : (
      <Loader size="xs" type="dots" />
    );
  const text =
    state === 'awaiting_payment'
      ? t('checkout.onchainAwaiting')
      : state === 'confirming'
        ? t('checkout.onchainConfirming', { n: onchain.confirmations, required: onchain.requiredConfirmations })
        : state === 'confirmed'
          ? t('checkout.onchainConfirmed')
          : t('checkout.onchainUnderpaid', { missing: formatSats(BigInt(onchain.missingSats), locale) });
  return (
    <Group justify="center" gap="xs" role="status" data-testid="onchain-status" wrap="nowrap">
      {icon}
      <Text size="sm" fw={state === 'underpaid' ? 600 : undefined} c={state === 'underpaid' ? 'orange.9' : undefined}>
        {text}
      </Text>
    </Group>
  );
}

/** Paying on-chain: the BIP21 QR code, the checkout's own address to copy, and the amount in BTC and sats. */
export function OnchainPayment({ onchain }: { onchain: PublicCheckoutOnchain }) {
  const { t } = useTranslation();
  const locale = useFormatLocale();
  const toPay = onchain.state === 'underpaid' ? onchain.missingSats : onchain.amountSats;
  return (
    <Stack gap="md">
      <QrCode value={onchain.bip21Uri} alt={t('checkout.onchainQrAlt')} size={300} />
      <Text ta="center" size="sm" c="dimmed">
        {t('checkout.onchainScan')}
      </Text>
      <Stack gap={4} align="center">
        <Text size="xl" fw={700} ff="monospace" data-testid="onchain-amount-btc">
          {satsToBtc(toPay, locale)} BTC
        </Text>
        <Text size="sm" c="dimmed" data-testid="onchain-amount-sats">
          {formatSats(BigInt(toPay), locale)}
        </Text>
      </Stack>
      <OnchainState onchain={onchain} />
      <Stack gap={6}>
        <Text size="sm" fw={600}>
          {t('checkout.onchainAddress')}
        </Text>
        <Code block data-testid="onchain-address" style={{ wordBreak: 'break-all', whiteSpace: 'pre-wrap' }}>
          {onchain.address}
        </Code>
      </Stack>
      <PaymentRequestActions
        value={onchain.address}
        copyLabel={t('checkout.copyAddress')}
        copiedLabel={t('checkout.addressCopied')}
      >
        <Button component="a" href={onchain.bip21Uri} variant="default" leftSection={<IconCurrencyBitcoin size={18} />}>
          {t('checkout.openWallet')}
        </Button>
      </PaymentRequestActions>
    </Stack>
  );
}
