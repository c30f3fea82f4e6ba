import { Button, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import type { PublicCheckout } from '@rayo/shared';
import { IconCheck } from '@tabler/icons-react';
import { useEffect, useEffectEvent, useState } from 'react';
import { ReceiptShare } from '../../components/ReceiptShare.tsx';
import { useTranslation } from '../../i18n/index.ts';

/** How often the page asks whether the shop has been told, while the shopper waits. */
export const STORE_POLL_MS = 2_000;
/**
 * After this the way back opens anyway: the shop is told by a job that retries until it
 * answers, and a shopper should not be held on our page by a shop that is down.
 */
export const STORE_WAIT_MS = 20_000;

/** The paid confirmation, with the way back to the store for a store's checkout. */
export function CheckoutPaid({
  checkout,
  accent,
  onRecheck,
}: {
  checkout: PublicCheckout;
  accent: string | null;
  onRecheck: () => void;
}) {
  const { t } = useTranslation();
  const [waitedOut, setWaitedOut] = useState(false);
  const telling = checkout.storeNotified === false && !waitedOut;
  const recheck = useEffectEvent(onRecheck);

  useEffect(() => {
    if (!telling) return;
    const poll = setInterval(recheck, STORE_POLL_MS);
    const giveUp = setTimeout(() => setWaitedOut(true), STORE_WAIT_MS);
    return () => {
      clearInterval(poll);
      clearTimeout(giveUp);
    };
  }, [telling]);

  return (
    <Stack align="center" gap="sm" py="md" role="status" data-testid="checkout-paid">
      <ThemeIcon size={64} radius="xl" color={accent ?? 'teal'}>
        <IconCheck size={40} />
      </ThemeIcon>
      <Title order={2} size="h3" ta="center">
        {t('checkout.paid')}
      </Title>
      <Text c="dimmed" ta="center">
        {t('checkout.paidText', { merchant: checkout.merchant.name })}
      </Text>
      {checkout.receiptTokens.map((token) => (
        <ReceiptShare key={token} token={token} />
      ))}
      {checkout.redirectUrl &&
        (telling ? (
          <Button size="md" color={accent ?? undefined} loading disabled aria-describedby="store-telling">
            {t('checkout.returnToStore')}
          </Button>
        ) : (
          <Button component="a" href={checkout.redirectUrl} size="md" color={accent ?? undefined}>
            {t('checkout.returnToStore')}
          </Button>
        ))}
      {checkout.redirectUrl && telling && (
        <Text size="sm" c="dimmed" ta="center" id="store-telling">
          {t('checkout.tellingStore')}
        </Text>
      )}
    </Stack>
  );
}
