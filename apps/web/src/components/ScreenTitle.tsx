import { Title } from '@mantine/core';
import { useTranslation } from '../i18n/index.ts';

/** The heading of a screen; a screen whose content is still to come shows only this. */
export function ScreenTitle({ titleKey }: { titleKey: string }) {
  const { t } = useTranslation();
  return (
    <Title order={1} size="h2" mb="lg">
      {t(titleKey)}
    </Title>
  );
}
