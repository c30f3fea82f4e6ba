import { Box, Center, Group, Paper, Stack } from '@mantine/core';
import { LanguageSelect } from '../components/LanguageSelect.tsx';
import { Logo } from '../components/Logo.tsx';
import { PageOutlet } from '../components/PageOutlet.tsx';

export function AuthLayout() {
  return (
    <Box mih="100dvh" bg="gray.0" px="md" py="xl">
      <Stack align="center" gap="xl" maw={440} mx="auto">
        <Group justify="space-between" w="100%">
          <Logo size={36} />
          <LanguageSelect />
        </Group>
        <Paper withBorder shadow="sm" p="xl" w="100%">
          <PageOutlet />
        </Paper>
      </Stack>
      <Center />
    </Box>
  );
}
