import { Group, Image, Title } from '@mantine/core';
import type { PublicBranding } from '@rayo/shared';
import { useTranslation } from '../i18n/index.ts';

/**
 * A public page's heading (a terminal's, a checkout's or a donation's), after the organization's
 * logo when it has one (Settings → logo and colour).
 */
export function BrandedTitle({
  name,
  branding,
  logoTestId,
}: {
  name: string;
  branding: PublicBranding | undefined;
  logoTestId: string;
}) {
  const { t } = useTranslation();
  return (
    <Group gap="sm" wrap="nowrap">
      {branding?.logoUrl && (
        <Image
          src={branding.logoUrl}
          alt={t('branding.logoAlt')}
          h={48}
          w="auto"
          maw={160}
          fit="contain"
          data-testid={logoTestId}
        />
      )}
      <Title order={1} size="h2" style={{ overflowWrap: 'anywhere' }}>
        {name}
      </Title>
    </Group>
  );
}
