import { Skeleton } from '@mantine/core';
import { usePayoutAddresses, useSetOnchainAddress } from '../../api/payout-destinations.ts';
import { LoadError } from '../../components/LoadError.tsx';
import { useTranslation } from '../../i18n/index.ts';
import { PayoutAddressForm } from './PayoutAddressForm.tsx';
import { PayoutDestinationCard, verificationOf } from './PayoutDestinationCard.tsx';

const examples = {
  mainnet: 'bc1q…',
  testnet: 'tb1q…',
  signet: 'tb1q…',
  regtest: 'bcrt1q…',
} as const;

/** Settings → Bitcoin on-chain address (SPEC §2): where the on-chain part of the payout split goes. */
export function OnchainAddressSection() {
  const { t } = useTranslation();
  const addresses = usePayoutAddresses();
  const save = useSetOnchainAddress();
  const data = addresses.data;
  return (
    <PayoutDestinationCard
      id="settings-onchain-address"
      title={t('payoutDestinations.onchain.title')}
      description={t('payoutDestinations.onchain.description', {
        network: data ? t(`payoutDestinations.onchain.networks.${data.network}`) : '…',
      })}
      state={data && verificationOf(data.onchainAddress, data.onchainVerified)}
    >
      {addresses.isPending && <Skeleton h={90} />}
      {addresses.isError && <LoadError error={addresses.error} onRetry={() => addresses.refetch()} />}
      {data && (
        <PayoutAddressForm
          key={data.onchainAddress ?? ''}
          texts="onchain"
          saved={data.onchainAddress}
          save={save}
          placeholder={examples[data.network]}
        />
      )}
    </PayoutDestinationCard>
  );
}
