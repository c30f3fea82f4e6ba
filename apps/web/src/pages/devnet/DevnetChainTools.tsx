import { Alert, Button, Code, Group, NumberInput, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconCube, IconSend } from '@tabler/icons-react';
import { type FormEvent, useState } from 'react';
import { ApiError } from '../../api/client.ts';
import { useDevnetChainTip, useDevnetMine, useDevnetSendOnchain } from '../../api/devnet.ts';
import { errorMessage } from '../../api/error-messages.ts';
import { useFormatLocale } from '../../components/format-locale.ts';
import { formatSats } from '../../components/money-format.ts';
import { useTranslation } from '../../i18n/index.ts';

function chainError(t: Parameters<typeof errorMessage>[0], error: unknown): string {
  if (error instanceof ApiError && error.code !== 'Network' && error.message) return error.message;
  return errorMessage(t, error);
}

/**
 * The devnet chain: its height, a button that mines a block (the first confirms every payment
 * waiting in the mempool), and an on-chain send from the devnet wallet. Absent when the server
 * watches a real chain.
 */
export function DevnetChainTools() {
  const { t } = useTranslation();
  const locale = useFormatLocale();
  const tip = useDevnetChainTip();
  const mine = useDevnetMine();
  const send = useDevnetSendOnchain();
  const [address, setAddress] = useState('');
  const [sats, setSats] = useState<number | string>('');
  const [missing, setMissing] = useState<{ address: boolean; sats: boolean }>({ address: false, sats: false });

  if (tip.isError) return null;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const trimmed =
      address
        .trim()
        .replace(/^bitcoin:/i, '')
        .split('?')[0] ?? '';
    const next = { address: trimmed === '', sats: typeof sats !== 'number' };
    setMissing(next);
    if (!next.address && typeof sats === 'number') send.mutate({ address: trimmed, sats });
  };

  return (
    <Paper withBorder p="lg" component="section" aria-labelledby="devnet-chain">
      <Stack>
        <Title order={2} size="h4" id="devnet-chain">
          {t('devnet.chainTitle')}
        </Title>
        <Text size="sm" c="dimmed">
          {t('devnet.chainText')}
        </Text>
        <Group justify="space-between" wrap="wrap" gap="sm">
          <Text size="sm" data-testid="devnet-chain-height">
            {t('devnet.height', { height: tip.data?.height ?? '…' })}
          </Text>
          <Button
            variant="light"
            leftSection={<IconCube size={18} />}
            loading={mine.isPending}
            onClick={() => mine.mutate(1)}
          >
            {t('devnet.mine')}
          </Button>
        </Group>
        {mine.error && (
          <Alert color="red" role="alert">
            {chainError(t, mine.error)}
          </Alert>
        )}
        <form onSubmit={submit} noValidate aria-labelledby="devnet-send">
          <Stack>
            <Title order={3} size="h5" id="devnet-send">
              {t('devnet.sendTitle')}
            </Title>
            <TextInput
              label={t('devnet.address')}
              description={t('devnet.addressHint')}
              value={address}
              onChange={(event) => {
                setAddress(event.currentTarget.value);
                setMissing((m) => ({ ...m, address: false }));
              }}
              error={missing.address && t('devnet.addressRequired')}
              spellCheck={false}
              autoComplete="off"
              styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
            />
            <NumberInput
              label={t('devnet.sats')}
              value={sats}
              onChange={(value) => {
                setSats(value);
                setMissing((m) => ({ ...m, sats: false }));
              }}
              error={missing.sats && t('devnet.satsRequired')}
              min={1}
              max={2_100_000_000}
              allowDecimal={false}
              allowNegative={false}
              thousandSeparator
              maw={280}
            />
            <Group>
              <Button type="submit" leftSection={<IconSend size={18} />} loading={send.isPending}>
                {t('devnet.send')}
              </Button>
            </Group>
            {send.data && send.variables && (
              <Alert color="teal" title={t('devnet.sent', { sats: formatSats(BigInt(send.variables.sats), locale) })}>
                <Text size="sm">{t('devnet.txid')}</Text>
                <Code block style={{ wordBreak: 'break-all', whiteSpace: 'pre-wrap' }}>
                  {send.data.txid}
                </Code>
              </Alert>
            )}
            {send.error && (
              <Alert color="red" role="alert">
                {chainError(t, send.error)}
              </Alert>
            )}
          </Stack>
        </form>
      </Stack>
    </Paper>
  );
}
