import { Button, Center, Stack, Title } from '@mantine/core';
import { Link } from 'react-router';
import { Logo } from '../../components/Logo.tsx';
import { useTranslation } from '../../i18n/index.ts';

export function NotFoundPage() {
  const { t } = useTranslation();
  return (
    <Center mih="100dvh" p="md">
      <Stack align="center" gap="lg">
        <Logo size={48} />
        <Title order={1} size="h2" ta="center">
          {t('notFound.title')}
        </Title>
        <Button component={Link} to="/">
          {t('notFound.home')}
        </Button>
      </Stack>
    </Center>
  );
}
