import { Code, List, Paper, Stack, Text, Title } from '@mantine/core';
import { SHOPIFY_PAYMENT_METHOD_NAME } from '@rayo/shared';
import { useConnectShopify } from '../../api/shops.ts';
import { useTranslation } from '../../i18n/index.ts';
import { ShopConnectionPanel } from './ShopConnectionPanel.tsx';

/**
 * `/ecommerce/shopify` (SPEC §2; docs/integrations.md "Shopify"): the admin connects the store
 * with the client id and secret of their Rayo app from Shopify's Dev Dashboard, then sets Rayo's
 * address in the app's Pay with Bitcoin extension. Rayo reads each order's outstanding amount
 * from Shopify and marks it paid.
 */
export function ShopifyPage() {
  const { t } = useTranslation();
  const connect = useConnectShopify();
  return (
    <Stack gap="lg" maw={760} mx="auto" w="100%">
      <Title order={1} size="h2">
        {t('pages.shopify')}
      </Title>
      <Paper withBorder p={{ base: 'md', sm: 'xl' }} component="section" aria-labelledby="shopify-steps">
        <Title order={2} size="h4" id="shopify-steps" mb="sm">
          {t('shops.shopify.stepsTitle')}
        </Title>
        <List type="ordered" spacing="xs" size="sm">
          <List.Item>{t('shops.shopify.step1')}</List.Item>
          <List.Item>{t('shops.shopify.step2')}</List.Item>
          <List.Item>{t('shops.shopify.step3', { name: SHOPIFY_PAYMENT_METHOD_NAME })}</List.Item>
          <List.Item>{t('shops.shopify.step4')}</List.Item>
        </List>
        <Text size="sm" c="dimmed" mt="sm">
          {t('shops.shopify.onPayment')}
        </Text>
      </Paper>
      <ShopConnectionPanel
        platform="shopify"
        fields={[
          {
            name: 'shop',
            label: t('shops.shopify.domain'),
            placeholder: 'my-store.myshopify.com',
            description: t('shops.shopify.domainHint'),
          },
          { name: 'clientId', label: t('shops.shopify.clientId'), placeholder: '3f9c0a1b2c3d…' },
          {
            name: 'clientSecret',
            label: t('shops.shopify.clientSecret'),
            placeholder: 'shpss_…',
            description: t('shops.shopify.clientSecretHint'),
            secret: true,
          },
        ]}
        connect={{
          ...connect,
          mutate: ({ values, virtualBptId, mfaCode }, options) =>
            connect.mutate(
              {
                shop: values.shop ?? '',
                clientId: values.clientId ?? '',
                clientSecret: values.clientSecret ?? '',
                virtualBptId,
                mfaCode,
              },
              options,
            ),
        }}
        connectedHelp={(connection) => (
          <Stack gap={4}>
            <Text size="sm">{t('shops.shopify.rayoAddressHelp')}</Text>
            <Code block style={{ overflowWrap: 'anywhere' }} data-testid="shopify-rayo-address">
              {new URL(connection.entryUrl).origin}
            </Code>
          </Stack>
        )}
      />
    </Stack>
  );
}
