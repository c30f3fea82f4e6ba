import { Paper, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { usePayouts } from '../../api/payouts.ts';
import { useFormatLocale } from '../../components/format-locale.ts';
import { formatMoney } from '../../components/money-format.ts';
import { PagedList } from '../../components/PagedList.tsx';
import { useTranslation } from '../../i18n/index.ts';
import { OnchainWaitingNotice } from './OnchainWaitingNotice.tsx';
import { PayoutHolds } from './PayoutHolds.tsx';
import { PayoutsTable } from './PayoutsTable.tsx';

const PAGE_SIZE = 10;

/**
 * Settings → Payouts (DESIGN §4): what was sent to the organization's Lightning address (with
 * the routing fee and the payment hash) and to its on-chain address (with the txid and how deep
 * the chain has it), newest first; and its fiat share, which waits for the bank transfer back
 * office marks paid; why payouts wait when a destination changed; and the on-chain share that
 * waits, with the reason.
 */
export function PayoutHistorySection() {
  const { t } = useTranslation();
  const locale = useFormatLocale();
  const [page, setPage] = useState(1);
  const payouts = usePayouts(page, PAGE_SIZE);

  return (
    <Paper withBorder p={{ base: 'md', sm: 'xl' }} component="section" aria-labelledby="settings-payouts">
      <Stack gap="md">
        <div>
          <Title order={2} size="h4" id="settings-payouts">
            {t('payouts.title')}
          </Title>
          <Text c="dimmed" size="sm" mt={4}>
            {t('payouts.description')}
          </Text>
        </div>
        {payouts.data && payouts.data.holds.length > 0 && <PayoutHolds holds={payouts.data.holds} />}
        {payouts.data?.onchainWaiting && <OnchainWaitingNotice waiting={payouts.data.onchainWaiting} />}
        {payouts.data && payouts.data.fiat.length > 0 && (
          <Stack gap={4} data-testid="payouts-fiat">
            {payouts.data.fiat.map((share) => (
              <Text size="sm" key={share.currency}>
                {t('payouts.fiat', {
                  awaiting: formatMoney(BigInt(share.awaitingMinor), share.currency, locale),
                  paid: formatMoney(BigInt(share.paidMinor), share.currency, locale),
                })}
              </Text>
            ))}
          </Stack>
        )}
        <PagedList query={payouts} pageSize={PAGE_SIZE} page={page} onPage={setPage} empty={t('payouts.empty')}>
          {(data) => <PayoutsTable payouts={data.payouts} />}
        </PagedList>
      </Stack>
    </Paper>
  );
}
