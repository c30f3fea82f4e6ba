import { Button, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import type { PublicCheckout } from '@rayo/shared';
import { IconCheck } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

/** The paid confirmation, with the way back to the store for a store's checkout. */
export function CheckoutPaid({ checkout, accent }: { checkout: PublicCheckout; accent: string | null }) {
  const { t } = useTranslation();
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
      {checkout.redirectUrl && (
        <Button component="a" href={checkout.redirectUrl} size="md" color={accent ?? undefined}>
          {t('checkout.returnToStore')}
        </Button>
      )}
    </Stack>
  );
}
