import { Box, Container } from '@mantine/core';
import { Outlet } from 'react-router';
import { Logo } from '../components/Logo.tsx';

export function PlainLayout() {
  return (
    <Box mih="100dvh" bg="gray.0">
      <Container size="sm" py="lg">
        <Box mb="lg">
          <Logo />
        </Box>
        <Outlet />
      </Container>
    </Box>
  );
}
