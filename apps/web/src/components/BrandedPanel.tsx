import { Paper, type PaperProps } from '@mantine/core';
import type { ReactNode } from 'react';

/** A public page's panel, topped with the organization's colour when it has one (Settings → logo and colour). */
export function BrandedPanel({
  accent,
  p = { base: 'md', xs: 'lg' },
  children,
  'data-testid': testId,
}: {
  accent: string | null;
  p?: PaperProps['p'];
  children: ReactNode;
  'data-testid': string;
}) {
  return (
    <Paper
      withBorder
      radius="lg"
      p={p}
      shadow="xs"
      style={accent ? { borderTop: `6px solid ${accent}` } : undefined}
      data-testid={testId}
    >
      {children}
    </Paper>
  );
}
