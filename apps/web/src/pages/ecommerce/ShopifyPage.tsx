import { Code, List, Paper, Stack, Text, Title } from '@mantine/core';
import { SHOPIFY_PAYMENT_METHOD_NAME, type ShopConnection } from '@rayo/shared';
import { useConnectShopify } from '../../api/shops.ts';
import { useTranslation } from '../../i18n/index.ts';
import { ShopConnectionPanel } from './ShopConnectionPanel.tsx';

/** The Liquid the order status page runs: the link carries the order's id, never its amount. */
function orderStatusSnippet(connection: ShopConnection, label: string): string {
  return `{% if order.financial_status != 'paid' %}<a href="${connection.entryUrl}{{ order.id }}">${label}</a>{% endif %}`;
}

/**
 * `/ecommerce/shopify` (SPEC §2; docs/integrations.md "Shopify"): the admin connects the store
 * with a custom app's Admin API token, then pastes the 'Complete payment' link into the order
 * status page. Rayo reads each order's outstanding amount from Shopify and marks it paid.
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
          <List.Item>{t('shops.shopify.step3')}</List.Item>
          <List.Item>{t('shops.shopify.step4', { name: SHOPIFY_PAYMENT_METHOD_NAME })}</List.Item>
          <List.Item>{t('shops.shopify.step5')}</List.Item>
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
          { name: 'accessToken', label: t('shops.shopify.token'), placeholder: 'shpat_…', secret: true },
          {
            name: 'apiSecretKey',
            label: t('shops.shopify.apiSecretKey'),
            placeholder: 'shpss_…',
            description: t('shops.shopify.apiSecretKeyHint'),
            secret: true,
            optional: true,
          },
        ]}
        connect={{
          ...connect,
          mutate: ({ values, virtualBptId, mfaCode }, options) =>
            connect.mutate(
              {
                shop: values.shop ?? '',
                accessToken: values.accessToken ?? '',
                ...(values.apiSecretKey ? { apiSecretKey: values.apiSecretKey } : {}),
                virtualBptId,
                mfaCode,
              },
              options,
            ),
        }}
        connectedHelp={(connection) => (
          <Stack gap={4}>
            <Text size="sm">{t('shops.shopify.snippetHelp')}</Text>
            <Code block style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }} data-testid="shopify-snippet">
              {orderStatusSnippet(connection, t('shops.shopify.completePayment'))}
            </Code>
          </Stack>
        )}
      />
    </Stack>
  );
}
