import {
  Alert,
  Anchor,
  Button,
  Code,
  CopyButton,
  Group,
  Paper,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import type { OnchainWalletSummary } from '@rayo/shared';
import { IconCopy, IconPlayerPlay, IconPlus } from '@tabler/icons-react';
import { Link } from 'react-router';
import { useCreateDepositAddress, useOnchainWallet, useRunOnchainPayouts } from '../../api/back-office.ts';
import { errorMessage } from '../../api/error-messages.ts';
import { useDateTimeFormat } from '../../components/date-time.ts';
import { useFormatLocale } from '../../components/format-locale.ts';
import { LoadError } from '../../components/LoadError.tsx';
import { formatSats } from '../../components/money-format.ts';
import { QrCode } from '../../components/QrCode.tsx';
import { useTranslation } from '../../i18n/index.ts';

function Figure({ label, value, note, testId }: { label: string; value: string; note: string; testId: string }) {
  return (
    <Paper withBorder p="sm" data-testid={testId}>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text size="xl" fw={700}>
        {value}
      </Text>
      <Text size="xs" c="dimmed">
        {note}
      </Text>
    </Paper>
  );
}

/**
 * The platform wallet (docs/decisions/0037-on-chain-payouts.md): what the organizations are owed
 * on-chain against what the wallet holds, who waits and why as the last payout run left it, a
 * deposit address to fund the wallet, and how far a restored wallet must look for its payments.
 */
export function OnchainWalletPanel() {
  const { t } = useTranslation();
  const wallet = useOnchainWallet();
  const run = useRunOnchainPayouts();
  const locale = useFormatLocale();
  const sats = (value: number) => formatSats(BigInt(value), locale);

  if (wallet.isError) return <LoadError error={wallet.error} onRetry={() => wallet.refetch()} />;
  if (wallet.isPending) return <Text size="sm">{t('common.loading')}</Text>;
  const summary = wallet.data;
  const forFunds = summary.waiting.filter((wait) => wait.reason === 'wallet_funds');
  const shortSats = forFunds.reduce((sum, wait) => sum + wait.owedSats, 0);

  return (
    <Paper withBorder p={{ base: 'md', sm: 'lg' }} component="section" aria-labelledby="onchain-wallet">
      <Stack gap="md">
        <Title order={2} size="h4" id="onchain-wallet">
          {t('backOffice.onchain.wallet.title')}
        </Title>
        {summary.signing === null ? (
          <Alert color="gray" variant="light">
            {t('backOffice.onchain.wallet.none')}
          </Alert>
        ) : (
          <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
            <Figure
              testId="wallet-owed"
              label={t('backOffice.onchain.wallet.owed')}
              value={sats(summary.owedSats)}
              note={t('backOffice.onchain.wallet.organizations', { count: summary.organizationsOwed })}
            />
            <Figure
              testId="wallet-held"
              label={t('backOffice.onchain.wallet.held')}
              value={sats(summary.heldSats)}
              note={
                summary.unconfirmedSats > 0
                  ? t('backOffice.onchain.wallet.unconfirmed', { sats: sats(summary.unconfirmedSats) })
                  : summary.heldSats === 0
                    ? t('backOffice.onchain.wallet.depositTitle')
                    : t('backOffice.onchain.wallet.allConfirmed')
              }
            />
            <Figure
              testId="wallet-waiting"
              label={t('backOffice.onchain.wallet.waiting')}
              value={sats(summary.waitingSats)}
              note={t('backOffice.onchain.wallet.organizations', { count: summary.waiting.length })}
            />
          </SimpleGrid>
        )}
        {summary.signing !== null && (
          <Group gap="sm" wrap="wrap">
            <Button
              size="xs"
              variant="light"
              leftSection={<IconPlayerPlay size={14} />}
              loading={run.isPending}
              onClick={() => run.mutate()}
            >
              {t('backOffice.onchain.wallet.run')}
            </Button>
            <Text size="xs" c="dimmed">
              {t('backOffice.onchain.wallet.runHelp')}
            </Text>
          </Group>
        )}
        {run.isError && (
          <Alert color="red" variant="light" role="alert">
            {errorMessage(t, run.error)}
          </Alert>
        )}
        {shortSats > 0 && (
          <Alert color="yellow" variant="light" role="status" title={t('backOffice.onchain.wallet.shortTitle')}>
            {t('backOffice.onchain.wallet.short', { sats: sats(shortSats), count: forFunds.length })}
          </Alert>
        )}
        {summary.waiting.length > 0 && <WaitingTable waiting={summary.waiting} />}
        {summary.signing !== null && <DepositAddress summary={summary} />}
      </Stack>
    </Paper>
  );
}

function WaitingTable({ waiting }: { waiting: OnchainWalletSummary['waiting'] }) {
  const { t } = useTranslation();
  const locale = useFormatLocale();
  // Across organizations: in UTC, and the times say so.
  const date = useDateTimeFormat();
  return (
    <Table.ScrollContainer minWidth={560}>
      <Table verticalSpacing="xs" data-testid="onchain-waiting">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('backOffice.onchain.wallet.organization')}</Table.Th>
            <Table.Th ta="right">{t('backOffice.onchain.wallet.owedColumn')}</Table.Th>
            <Table.Th>{t('backOffice.onchain.wallet.why')}</Table.Th>
            <Table.Th>{t('backOffice.onchain.wallet.since')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {waiting.map((wait) => (
            <Table.Tr key={wait.organizationId}>
              <Table.Td>
                <Anchor component={Link} to={`/back-office/${wait.organizationId}/infos`} size="sm">
                  {wait.organizationName}
                </Anchor>
              </Table.Td>
              <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
                {formatSats(BigInt(wait.owedSats), locale)}
              </Table.Td>
              <Table.Td>{t(`backOffice.onchain.wallet.reasons.${wait.reason}`)}</Table.Td>
              <Table.Td style={{ whiteSpace: 'nowrap' }}>{wait.since ? date(wait.since) : ''}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

function DepositAddress({ summary }: { summary: OnchainWalletSummary }) {
  const { t } = useTranslation();
  const create = useCreateDepositAddress();
  const address = summary.depositAddress;
  return (
    <Stack gap="xs" data-testid="deposit-address">
      <Title order={3} size="h5">
        {t('backOffice.onchain.wallet.depositTitle')}
      </Title>
      <Text size="sm" c="dimmed">
        {t('backOffice.onchain.wallet.depositHelp')}
      </Text>
      {address && (
        <Group align="flex-start" gap="md" wrap="wrap">
          <QrCode value={`bitcoin:${address}`} alt={t('backOffice.onchain.wallet.depositQr')} size={144} />
          <Stack gap={6} style={{ flex: '1 1 240px', minWidth: 0 }}>
            <Code block style={{ wordBreak: 'break-all', whiteSpace: 'normal' }} data-testid="deposit-address-value">
              {address}
            </Code>
            <CopyButton value={address} timeout={2000}>
              {({ copied, copy }) => (
                <Button size="xs" variant="default" leftSection={<IconCopy size={14} />} onClick={copy} w="fit-content">
                  {copied ? t('backOffice.onchain.wallet.copied') : t('backOffice.onchain.wallet.copy')}
                </Button>
              )}
            </CopyButton>
            {summary.chain === 'devnet' && (
              <Text size="xs" c="dimmed">
                {t('backOffice.onchain.wallet.devnetHint')}{' '}
                <Anchor component={Link} to="/devnet/wallet" size="xs">
                  {t('backOffice.onchain.wallet.devnetLink')}
                </Anchor>
              </Text>
            )}
          </Stack>
        </Group>
      )}
      <Button
        size="xs"
        variant={address ? 'default' : 'filled'}
        leftSection={<IconPlus size={14} />}
        loading={create.isPending}
        onClick={() => create.mutate()}
        w="fit-content"
      >
        {address ? t('backOffice.onchain.wallet.newAddress') : t('backOffice.onchain.wallet.firstAddress')}
      </Button>
      {create.isError && (
        <Alert color="red" variant="light" role="alert">
          {errorMessage(t, create.error)}
        </Alert>
      )}
      {summary.unusedReceiveAddresses > 0 && (
        <Text size="xs" c="dimmed" data-testid="receive-gap">
          {t('backOffice.onchain.wallet.gap', { count: summary.unusedReceiveAddresses })}
        </Text>
      )}
    </Stack>
  );
}
