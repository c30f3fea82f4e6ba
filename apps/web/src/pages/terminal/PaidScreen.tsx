import { Box, Button, Paper, Stack, ThemeIcon, Title } from '@mantine/core';
import type { Invoice } from '@rayo/shared';
import { IconCheck } from '@tabler/icons-react';
import { useInvoiceReceiptLink } from '../../api/receipts.ts';
import { ReceiptShare } from '../../components/ReceiptShare.tsx';
import { useTranslation } from '../../i18n/index.ts';
import { InvoiceAmount } from './InvoicePanel.tsx';

/**
 * Covers the whole screen in green, so a customer across the counter sees at once that it is
 * paid, with the receipt to scan or to have mailed.
 */
export function PaidScreen({ invoice, onNewSale }: { invoice: Invoice; onNewSale: () => void }) {
  const { t } = useTranslation();
  const receipt = useInvoiceReceiptLink(invoice.id);
  return (
    <Box
      pos="fixed"
      inset={0}
      bg="green.9"
      c="white"
      style={{ zIndex: 1000, display: 'grid', placeItems: 'center', overflowY: 'auto' }}
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
        {receipt.data && (
          <Paper radius="md" p="sm" c="dark" bg="white">
            <ReceiptShare token={receipt.data.token} />
          </Paper>
        )}
        <Button size="xl" variant="white" color="green.9" onClick={onNewSale} autoFocus miw={220}>
          {t('terminal.newSale')}
        </Button>
      </Stack>
    </Box>
  );
}
