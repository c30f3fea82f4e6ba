import {
  Alert,
  Badge,
  Button,
  Code,
  CopyButton,
  Group,
  NumberInput,
  Paper,
  Stack,
  Text,
  Textarea,
  Title,
} from '@mantine/core';
import { msatToWholeSats } from '@rayo/shared';
import { IconCheck, IconCopy, IconFlask } from '@tabler/icons-react';
import { type FormEvent, useState } from 'react';
import { Outlet } from 'react-router';
import { usePublicConfig } from '../../api/catalog.ts';
import { ApiError } from '../../api/client.ts';
import { useDevnetPay, useDevnetWithdrawLink } from '../../api/devnet.ts';
import { errorMessage } from '../../api/error-messages.ts';
import { useFormatLocale } from '../../components/format-locale.ts';
import { formatSats } from '../../components/money-format.ts';
import { useTranslation } from '../../i18n/index.ts';
import { NotFoundPage } from '../not-found/NotFoundPage.tsx';
import { DevnetChainTools } from './DevnetChainTools.tsx';

/** Devnet pages exist only on a server whose payments go to the built-in devnet node. */
export function DevnetOnly() {
  const config = usePublicConfig();
  if (config.isPending) return null;
  return config.data?.devnet ? <Outlet /> : <NotFoundPage />;
}

/** The devnet server explains its refusals (unknown invoice, already paid…); those words help a tester most. */
function devnetError(t: Parameters<typeof errorMessage>[0], error: unknown): string {
  if (error instanceof ApiError && error.code !== 'Network' && error.message) return error.message;
  return errorMessage(t, error);
}

function CopyValue({ value }: { value: string }) {
  const { t } = useTranslation();
  return (
    <CopyButton value={value} timeout={2000}>
      {({ copied, copy }) => (
        <Button
          size="xs"
          variant="light"
          color={copied ? 'teal' : undefined}
          leftSection={copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
          onClick={copy}
        >
          {t(copied ? 'common.copied' : 'common.copy')}
        </Button>
      )}
    </CopyButton>
  );
}

function PayInvoice() {
  const { t } = useTranslation();
  const locale = useFormatLocale();
  const pay = useDevnetPay();
  const [invoice, setInvoice] = useState('');
  const [missing, setMissing] = useState(false);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    // Wallets take `lightning:` URIs as well as bare invoices; the server takes the invoice.
    const paymentRequest = invoice.trim().replace(/^lightning:/i, '');
    setMissing(!paymentRequest);
    if (paymentRequest) pay.mutate(paymentRequest);
  };
  return (
    <Paper withBorder p="lg" component="section" aria-labelledby="devnet-pay">
      <form onSubmit={submit} noValidate>
        <Stack>
          <Title order={2} size="h4" id="devnet-pay">
            {t('devnet.payTitle')}
          </Title>
          <Textarea
            label={t('devnet.invoice')}
            description={t('devnet.invoiceHint')}
            value={invoice}
            onChange={(event) => {
              setInvoice(event.currentTarget.value);
              setMissing(false);
            }}
            error={missing && t('devnet.invoiceRequired')}
            autosize
            minRows={3}
            spellCheck={false}
            styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)', wordBreak: 'break-all' } }}
          />
          <Group>
            <Button type="submit" loading={pay.isPending}>
              {t('devnet.pay')}
            </Button>
          </Group>
          {pay.data && (
            <Alert
              color="teal"
              title={t('devnet.paid', { sats: formatSats(msatToWholeSats(pay.data.amountMsat), locale) })}
            >
              <Text size="sm">{t('devnet.hash')}</Text>
              <Code block style={{ wordBreak: 'break-all', whiteSpace: 'pre-wrap' }}>
                {pay.data.paymentHash}
              </Code>
            </Alert>
          )}
          {pay.error && (
            <Alert color="red" role="alert">
              {devnetError(t, pay.error)}
            </Alert>
          )}
        </Stack>
      </form>
    </Paper>
  );
}

function TestCard() {
  const { t } = useTranslation();
  const create = useDevnetWithdrawLink();
  const [maxSats, setMaxSats] = useState<number | string>('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate(typeof maxSats === 'number' ? { maxMsat: maxSats * 1000 } : {});
  };
  return (
    <Paper withBorder p="lg" component="section" aria-labelledby="devnet-card">
      <form onSubmit={submit} noValidate>
        <Stack>
          <Title order={2} size="h4" id="devnet-card">
            {t('devnet.cardTitle')}
          </Title>
          <Text size="sm" c="dimmed">
            {t('devnet.cardText')}
          </Text>
          <NumberInput
            label={t('devnet.maxSats')}
            description={t('devnet.maxSatsHint')}
            value={maxSats}
            onChange={setMaxSats}
            min={1}
            max={Math.floor(Number.MAX_SAFE_INTEGER / 1000)}
            allowDecimal={false}
            allowNegative={false}
            thousandSeparator
            maw={280}
          />
          <Group>
            <Button type="submit" variant="light" loading={create.isPending}>
              {t('devnet.createCard')}
            </Button>
          </Group>
          {create.data && (
            <Stack gap="xs">
              <Group justify="space-between">
                <Text size="sm" fw={600}>
                  {t('devnet.cardLink')}
                </Text>
                <CopyValue value={create.data.lnurl} />
              </Group>
              <Code block style={{ wordBreak: 'break-all', whiteSpace: 'pre-wrap' }}>
                {create.data.lnurl}
              </Code>
            </Stack>
          )}
          {create.error && (
            <Alert color="red" role="alert">
              {devnetError(t, create.error)}
            </Alert>
          )}
        </Stack>
      </form>
    </Paper>
  );
}

/** Pays devnet invoices and makes one-time test card links, so the whole payment flow runs without real bitcoin. */
export function DevnetWalletPage() {
  const { t } = useTranslation();
  return (
    <Stack gap="lg">
      <Stack gap="xs">
        <Badge color="orange" variant="light" leftSection={<IconFlask size={14} />} w="fit-content">
          {t('devnet.badge')}
        </Badge>
        <Title order={1} size="h2">
          {t('devnet.title')}
        </Title>
        <Text c="dimmed">{t('devnet.intro')}</Text>
      </Stack>
      <PayInvoice />
      <DevnetChainTools />
      <TestCard />
    </Stack>
  );
}
