import { Button, CopyButton, SimpleGrid } from '@mantine/core';
import { IconCheck, IconCopy } from '@tabler/icons-react';
import type { ReactNode } from 'react';

/**
 * Under a payment's QR code: copy what the payer's wallet needs, beside one more action (open the
 * wallet, cancel, go back). Side by side from a small tablet up; stacked on a phone, where both
 * labels would not fit.
 */
export function PaymentRequestActions({
  value,
  copyLabel,
  copiedLabel,
  children,
}: {
  value: string;
  copyLabel: string;
  copiedLabel: string;
  children: ReactNode;
}) {
  return (
    <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="xs">
      <CopyButton value={value} timeout={2000}>
        {({ copied, copy }) => (
          <Button
            variant="light"
            color={copied ? 'teal' : undefined}
            leftSection={copied ? <IconCheck size={18} /> : <IconCopy size={18} />}
            onClick={copy}
          >
            {copied ? copiedLabel : copyLabel}
          </Button>
        )}
      </CopyButton>
      {children}
    </SimpleGrid>
  );
}
