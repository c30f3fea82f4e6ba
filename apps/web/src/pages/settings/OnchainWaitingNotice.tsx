import { Alert, Text } from '@mantine/core';
import type { OnchainWaiting } from '@rayo/shared';
import { useDateTimeFormat } from '../../components/date-time.ts';
import { useFormatLocale } from '../../components/format-locale.ts';
import { formatSats } from '../../components/money-format.ts';
import { useTranslation } from '../../i18n/index.ts';

/**
 * The on-chain share no payout carries yet, and why it waits, as the last payout run found
 * (docs/decisions/0037-on-chain-payouts.md): the platform wallet's funds, the minimum, a recent
 * address change, an earlier batch, a missing address.
 */
export function OnchainWaitingNotice({ waiting }: { waiting: OnchainWaiting }) {
  const { t } = useTranslation();
  const locale = useFormatLocale();
  const date = useDateTimeFormat();
  const stalled =
    waiting.reason === 'wallet_funds' || waiting.reason === 'no_address' || waiting.reason === 'no_wallet';
  return (
    <Alert
      color={stalled ? 'yellow' : 'blue'}
      variant="light"
      title={t('payouts.onchainWaiting.title', { sats: formatSats(BigInt(waiting.owedSats), locale) })}
      data-testid="onchain-waiting"
    >
      <Text size="sm">
        {t(`payouts.onchainWaiting.reasons.${waiting.reason}`, {
          minimum: formatSats(BigInt(waiting.minimumSats), locale),
        })}
      </Text>
      {waiting.since && (
        <Text size="xs" c="dimmed" mt={4}>
          {t('payouts.onchainWaiting.since', { date: date(waiting.since) })}
        </Text>
      )}
    </Alert>
  );
}
