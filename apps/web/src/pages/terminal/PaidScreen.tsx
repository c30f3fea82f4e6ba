import { Box, Button, Stack, ThemeIcon, Title } from '@mantine/core';
import type { Invoice } from '@rayo/shared';
import { IconCheck } from '@tabler/icons-react';
import { useTranslation } from '../../i18n/index.ts';
import { InvoiceAmount } from './InvoicePanel.tsx';

/** Covers the whole screen in green, so a customer across the counter sees at once that it is paid. */
export function PaidScreen({ invoice, onNewSale }: { invoice: Invoice; onNewSale: () => void }) {
  const { t } = useTranslation();
  return (
    <Box
      pos="fixed"
      inset={0}
      bg="green.9"
      c="white"
      style={{ zIndex: 1000, display: 'grid', placeItems: 'center' }}
      role="dialog"
      aria-modal="true"
      aria-labelledby="paid-title"
      p="md"
    >
      <Stack align="center" gap="lg">
        <ThemeIcon size={112} radius={112} color="white" c="green.9" variant="filled">
          <IconCheck size={72} stroke={3} />
        </ThemeIcon>
        <Title id="paid-title" order={2} fz={48} c="white">
          {t('terminal.paid')}
        </Title>
        <InvoiceAmount invoice={invoice} size={36} />
        <Button size="xl" variant="white" color="green.9" onClick={onNewSale} autoFocus miw={220}>
          {t('terminal.newSale')}
        </Button>
      </Stack>
    </Box>
  );
}
