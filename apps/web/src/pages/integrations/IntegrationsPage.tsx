import { Stack, Title } from '@mantine/core';
import { useTranslation } from '../../i18n/index.ts';
import { DonationsSection } from './donations/DonationsSection.tsx';
import { ShopsSection } from './ShopsSection.tsx';
import { VirtualBptSection } from './VirtualBptSection.tsx';
import { WebhooksSection } from './webhooks/WebhooksSection.tsx';

/** Selling online (SPEC §2 Integrations): one section per way of selling, each owning its own data. */
export function IntegrationsPage() {
  const { t } = useTranslation();
  return (
    <>
      <Title order={1} size="h2" mb="lg">
        {t('nav.integrations')}
      </Title>
      <Stack gap="lg">
        <VirtualBptSection />
        <ShopsSection />
        <DonationsSection />
        <WebhooksSection />
      </Stack>
    </>
  );
}
