import { Divider, Group, Stack, Text } from '@mantine/core';
import type { PublicCheckout } from '@rayo/shared';
import { useFormatLocale } from '../../components/format-locale.ts';
import { formatMoney } from '../../components/money-format.ts';
import { useTranslation } from '../../i18n/index.ts';
import { checkoutAmounts } from './checkout-amount.ts';

/** The order: what is paid for, the store's order id, and the amount in fiat and in sats. */
export function OrderSummary({ checkout }: { checkout: PublicCheckout }) {
  const { t } = useTranslation();
  const locale = useFormatLocale();
  const { main, secondary } = checkoutAmounts(checkout);
  return (
    <Stack gap="xs" data-testid="order-summary">
      <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
        {checkout.description}
      </Text>
      {checkout.orderId && (
        <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
          {t('checkout.orderId', { id: checkout.orderId })}
        </Text>
      )}
      <Divider />
      <Group justify="space-between" align="flex-start" wrap="nowrap">
        <Text c="dimmed">{t('checkout.total')}</Text>
        <Stack gap={0} align="flex-end">
          <Text fz={28} fw={700} lh={1.2} data-testid="checkout-amount">
            {formatMoney(main.minor, main.currency, locale)}
          </Text>
          {secondary && (
            <Text size="sm" c="dimmed" data-testid="checkout-amount-secondary">
              {formatMoney(secondary.minor, secondary.currency, locale)}
            </Text>
          )}
        </Stack>
      </Group>
    </Stack>
  );
}
