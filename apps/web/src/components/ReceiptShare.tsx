import { Anchor, Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { type Language, receiptPath } from '@rayo/shared';
import { IconMail, IconReceipt } from '@tabler/icons-react';
import { type FormEvent, useState } from 'react';
import { publicErrorMessage } from '../api/error-messages.ts';
import { useEmailReceipt } from '../api/receipts.ts';
import { useTranslation } from '../i18n/index.ts';
import { QrCode } from './QrCode.tsx';

/**
 * A paid sale's receipt, handed to the customer on the paid screen: a QR to scan, the link, and
 * an address to mail it to (sent once, not kept). Mailing is a choice, so the address is not
 * marked as required: Send waits until one is typed, and the server judges it.
 */
export function ReceiptShare({ token }: { token: string }) {
  const { t, i18n } = useTranslation();
  const url = new URL(receiptPath(token), window.location.origin).toString();
  const send = useEmailReceipt();
  const [email, setEmail] = useState('');
  const [sentTo, setSentTo] = useState<string | null>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const address = email.trim();
    send.mutate(
      { token, email: address, language: i18n.language as Language },
      {
        onSuccess: () => {
          setSentTo(address);
          setEmail('');
        },
      },
    );
  };

  return (
    <Stack gap="xs" align="center" data-testid="receipt-share" w="100%" maw={320}>
      <QrCode value={url} alt={t('receipt.qrAlt')} size={168} />
      <Anchor href={url} target="_blank" rel="noopener" fw={600} data-testid="receipt-link">
        <Group gap={4} component="span" wrap="nowrap">
          <IconReceipt size={18} aria-hidden />
          {t('pageTitles.receipt')}
        </Group>
      </Anchor>
      <form onSubmit={submit} style={{ width: '100%' }} noValidate>
        <Group gap="xs" align="flex-end" wrap="nowrap">
          <TextInput
            label={t('receipt.emailLabel')}
            type="email"
            autoComplete="email"
            value={email}
            onChange={(event) => setEmail(event.currentTarget.value)}
            error={send.isError ? publicErrorMessage(t, send.error) : undefined}
            style={{ flex: 1 }}
          />
          <Button type="submit" loading={send.isPending} leftSection={<IconMail size={16} />} disabled={!email.trim()}>
            {t('devnet.send')}
          </Button>
        </Group>
      </form>
      {sentTo && !send.isError && (
        <Text size="sm" role="status">
          {t('receipt.sent', { email: sentTo })}
        </Text>
      )}
    </Stack>
  );
}
