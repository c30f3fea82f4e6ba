import { Group, Loader, Text } from '@mantine/core';
import type { ReactNode } from 'react';

/** The live line under a payment's QR code while it is awaited, with the time left when there is a deadline. */
export function AwaitingPayment({
  label,
  timeLeft,
  timeLeftTestId,
  'data-testid': testId,
}: {
  label: string;
  timeLeft?: ReactNode;
  timeLeftTestId?: string;
  'data-testid'?: string;
}) {
  return (
    <Group justify="center" gap="xs" role="status" data-testid={testId}>
      <Loader size="xs" type="dots" />
      <Text size="sm">{label}</Text>
      {timeLeft && (
        <Text size="sm" c="dimmed" ff="monospace" data-testid={timeLeftTestId}>
          {timeLeft}
        </Text>
      )}
    </Group>
  );
}
