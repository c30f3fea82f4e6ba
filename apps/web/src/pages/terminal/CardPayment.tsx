import { Alert, Button, Group, Stack, Text, TextInput } from '@mantine/core';
import type { InvoiceStatus } from '@rayo/shared';
import { IconNfc } from '@tabler/icons-react';
import { type FormEvent, useState } from 'react';
import { errorMessage } from '../../api/error-messages.ts';
import { useLnurlWithdraw } from '../../api/invoices.ts';
import { useTranslation } from '../../i18n/index.ts';
import { type NfcRead, useNfc } from './nfc.ts';

/**
 * Pays the invoice from an LNURL-withdraw: read from a Bolt Card where the browser has NFC,
 * or pasted, which also works where it has not.
 */
export function CardPayment({
  invoiceId,
  onStatus,
}: {
  invoiceId: string;
  onStatus: (status: InvoiceStatus, invoiceId: string) => void;
}) {
  const { t } = useTranslation();
  const withdraw = useLnurlWithdraw();
  const [pasted, setPasted] = useState('');
  const [problem, setProblem] = useState<string | null>(null);

  const pay = (lnurl: string) => {
    setProblem(null);
    withdraw.mutate({ invoiceId, lnurl }, { onSuccess: (invoice) => onStatus(invoice.status, invoice.id) });
  };
  const nfc = useNfc((read: NfcRead) => {
    if (read.kind === 'lnurl') pay(read.lnurl);
    else setProblem(t(read.kind === 'error' ? 'errors.nfcRead' : 'errors.invalidLnurlWithdraw'));
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    // The server judges pasted links: it also takes forms a card never holds, such as https URLs.
    if (pasted.trim()) pay(pasted.trim());
  };
  const message = problem ?? (withdraw.error ? errorMessage(t, withdraw.error) : null);

  return (
    <Stack gap="sm">
      <Text fw={600}>{t('terminal.card')}</Text>
      {nfc.available && (
        <Button
          variant={nfc.listening ? 'light' : 'filled'}
          leftSection={<IconNfc size={20} />}
          onClick={nfc.listening ? nfc.stop : nfc.start}
          size="md"
        >
          {t(nfc.listening ? 'terminal.stopListening' : 'terminal.tapCard')}
        </Button>
      )}
      {nfc.listening && (
        <Text size="sm" c="dimmed" role="status">
          {t('terminal.listening')}
        </Text>
      )}
      <form onSubmit={submit} noValidate>
        <Group gap="xs" align="flex-end" wrap="nowrap">
          <TextInput
            label={t('terminal.pasteLnurl')}
            value={pasted}
            onChange={(event) => setPasted(event.currentTarget.value)}
            autoComplete="off"
            spellCheck={false}
            style={{ flex: 1 }}
          />
          <Button type="submit" variant="default" loading={withdraw.isPending} disabled={!pasted.trim()}>
            {t('terminal.pay')}
          </Button>
        </Group>
      </form>
      {withdraw.isSuccess && !message && (
        <Text size="sm" c="teal.9" role="status">
          {t('terminal.withdrawSent')}
        </Text>
      )}
      {message && (
        <Alert color="red" role="alert" py="xs">
          {message}
        </Alert>
      )}
    </Stack>
  );
}
