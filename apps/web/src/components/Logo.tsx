import { Group, Text } from '@mantine/core';
import logoMark from '../assets/logo-mark.svg';

export function Logo({ size = 32 }: { size?: number }) {
  return (
    <Group gap={8} wrap="nowrap" aria-label="Rayo">
      <img src={logoMark} width={size} height={size} alt="" />
      <Text fw={800} fz={size * 0.7} lh={1} c="dark.8">
        Rayo
      </Text>
    </Group>
  );
}
