import { Box, Container, Group } from '@mantine/core';
import type { ReactNode } from 'react';
import { LanguageSelect } from '../components/LanguageSelect.tsx';
import { Logo } from '../components/Logo.tsx';

/**
 * The frame of the pages a customer opens from a link: the logo and the language choice above
 * the page. It comes with the app's first file, so it is drawn while the page's code arrives.
 */
export function PlainFrame({ children }: { children: ReactNode }) {
  return (
    <Box mih="100dvh" bg="gray.0">
      <Container size="sm" py="lg">
        {/* Customers and shared terminals use these pages without signing in, so they choose the language here. */}
        <Group justify="space-between" mb="lg">
          <Logo />
          <LanguageSelect />
        </Group>
        {children}
      </Container>
    </Box>
  );
}
