import { Alert, Group, Stack, Text } from '@mantine/core';
import { type Money, type PublicCheckout, SATS } from '@rayo/shared';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useFormatLocale } from '../../components/format-locale.ts';
import { formatDecimalMoney, formatSats } from '../../components/money-format.ts';
import { useTranslation } from '../../i18n/index.ts';

type Underpaid = NonNullable<PublicCheckout['underpaid']>;

/**
 * Part of the price arrived and the rest is missing: what arrived, what is still to pay (in the
 * checkout's currency and in sats), and that either method takes the rest.
 */
export function UnderpaidSummary({ underpaid }: { underpaid: Underpaid }) {
  const { t } = useTranslation();
  return (
    <Alert
      color="orange"
      variant="light"
      icon={<IconAlertTriangle size={20} />}
      title={t('checkout.underpaidTitle')}
      role="status"
      data-testid="checkout-underpaid"
    >
      <Stack gap="xs">
        <Figure
          label={t('checkout.received')}
          money={underpaid.received}
          sats={underpaid.receivedSats}
          testId="received"
        />
        <Figure
          label={t('checkout.missing')}
          money={underpaid.missing}
          sats={underpaid.missingSats}
          testId="missing"
          bold
        />
        <Text size="sm">{t('checkout.underpaidText')}</Text>
      </Stack>
    </Alert>
  );
}

/** One line of the summary: the amount in the checkout's currency, its satoshis underneath. */
function Figure(props: { label: string; money: Money; sats: number; testId: string; bold?: boolean }) {
  const locale = useFormatLocale();
  const weight = props.bold ? 700 : undefined;
  const sats = formatSats(BigInt(props.sats), locale);
  return (
    <Group justify="space-between" align="flex-start" gap="xs" wrap="nowrap">
      <Text size="sm" fw={weight}>
        {props.label}
      </Text>
      <Stack gap={0} align="flex-end">
        <Text size="sm" fw={weight} data-testid={`checkout-${props.testId}`} style={{ whiteSpace: 'nowrap' }}>
          {props.money.currency === SATS ? sats : formatDecimalMoney(props.money.value, props.money.currency, locale)}
        </Text>
        {props.money.currency !== SATS && (
          <Text size="xs" c="dimmed" data-testid={`checkout-${props.testId}-sats`}>
            {sats}
          </Text>
        )}
      </Stack>
    </Group>
  );
}
