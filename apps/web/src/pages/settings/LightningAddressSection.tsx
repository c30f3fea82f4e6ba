import { Skeleton } from '@mantine/core';
import { usePayoutAddresses, useSetLightningAddress } from '../../api/payout-destinations.ts';
import { LoadError } from '../../components/LoadError.tsx';
import { useTranslation } from '../../i18n/index.ts';
import { PayoutAddressForm } from './PayoutAddressForm.tsx';
import { PayoutDestinationCard, verificationOf } from './PayoutDestinationCard.tsx';

/**
 * Settings → disbursement Lightning address (SPEC §2): where the Lightning part of the payout
 * split goes. The server saves it only once its domain answers for it (LUD-16).
 */
export function LightningAddressSection() {
  const { t } = useTranslation();
  const addresses = usePayoutAddresses();
  const save = useSetLightningAddress();
  const data = addresses.data;
  return (
    <PayoutDestinationCard
      id="settings-lightning-address"
      title={t('payoutDestinations.lightning.title')}
      description={t('payoutDestinations.lightning.description')}
      state={data && verificationOf(data.lightningAddress, data.lightningVerified)}
    >
      {addresses.isPending && <Skeleton h={90} />}
      {addresses.isError && <LoadError error={addresses.error} onRetry={() => addresses.refetch()} />}
      {data && (
        <PayoutAddressForm
          key={data.lightningAddress ?? ''}
          texts="lightning"
          saved={data.lightningAddress}
          save={save}
          placeholder="name@wallet.com"
        />
      )}
    </PayoutDestinationCard>
  );
}
