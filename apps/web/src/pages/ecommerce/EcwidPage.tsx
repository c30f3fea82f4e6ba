import { Text } from '@mantine/core';
import { useConnectEcwid } from '../../api/shops.ts';
import { useTranslation } from '../../i18n/index.ts';
import { ShopConnectionPanel } from './ShopConnectionPanel.tsx';

/**
 * `/ecommerce/ecwid`, inside the Ecwid admin (the layout shows the heading, Open App and the
 * setup steps): the admin saves the store id, the payment app's client secret and its secret
 * token (with which Rayo checks the store with Ecwid, and which it does not keep), and gets the
 * payment URL to give Ecwid.
 */
export function EcwidPage() {
  const { t } = useTranslation();
  const connect = useConnectEcwid();
  return (
    <ShopConnectionPanel
      platform="ecwid"
      fields={[
        {
          name: 'storeId',
          label: t('shops.ecwid.storeId'),
          placeholder: '1003',
          description: t('shops.ecwid.storeIdHint'),
        },
        {
          name: 'clientSecret',
          label: t('shops.ecwid.clientSecret'),
          placeholder: '••••••••••••••••',
          description: t('shops.ecwid.clientSecretHint'),
          secret: true,
        },
        {
          name: 'secretToken',
          label: t('shops.ecwid.secretToken'),
          placeholder: 'secret_…',
          description: t('shops.ecwid.secretTokenHint'),
          secret: true,
        },
      ]}
      connect={{
        ...connect,
        mutate: ({ values, virtualBptId, mfaCode }, options) =>
          connect.mutate(
            {
              storeId: values.storeId ?? '',
              clientSecret: values.clientSecret ?? '',
              secretToken: values.secretToken ?? '',
              virtualBptId,
              mfaCode,
            },
            options,
          ),
      }}
      connectedHelp={() => (
        <Text size="sm" c="dimmed">
          {t('shops.ecwid.entryHelp')}
        </Text>
      )}
    />
  );
}
