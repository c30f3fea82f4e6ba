import { Box, Container, Group } from '@mantine/core';
import { LanguageSelect } from '../components/LanguageSelect.tsx';
import { Logo } from '../components/Logo.tsx';
import { PageOutlet } from '../components/PageOutlet.tsx';

export function PlainLayout() {
  return (
    <Box mih="100dvh" bg="gray.0">
      <Container size="sm" py="lg">
        {/* Customers and shared terminals use these pages without signing in, so they choose the language here. */}
        <Group justify="space-between" mb="lg">
          <Logo />
          <LanguageSelect />
        </Group>
        <PageOutlet />
      </Container>
    </Box>
  );
}
