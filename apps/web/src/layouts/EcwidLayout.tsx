import { Box, Container, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Logo } from '../components/Logo.tsx';
import { PageOutlet } from '../components/PageOutlet.tsx';

export function EcwidLayout() {
  const { t } = useTranslation();
  return (
    <Container size="sm" py="lg">
      <Box mb="lg">
        <Logo />
      </Box>
      <Title order={1} size="h2" mb="lg">
        {t('ecwid.heading')}
      </Title>
      <PageOutlet />
    </Container>
  );
}
