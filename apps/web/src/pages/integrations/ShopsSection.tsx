import { Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { useTranslation } from '../../i18n/index.ts';

/** Integrations → the Shopify link and Ecwid (SPEC §2): each store platform has its own screen. */
export function ShopsSection() {
  const { t } = useTranslation();
  return (
    <Paper withBorder p={{ base: 'md', sm: 'xl' }} component="section" aria-labelledby="integrations-shops">
      <Stack gap="sm">
        <div>
          <Title order={2} size="h4" id="integrations-shops">
            {t('shops.sectionTitle')}
          </Title>
          <Text c="dimmed" size="sm" mt={4}>
            {t('shops.sectionDescription')}
          </Text>
        </div>
        <Group gap="sm">
          <Button component={Link} to="/ecommerce/shopify" variant="light">
            {t('shops.shopifyLink')}
          </Button>
          <Button component={Link} to="/ecommerce/ecwid" variant="light">
            {t('shops.ecwidLink')}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
