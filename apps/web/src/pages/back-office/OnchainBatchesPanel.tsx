import { Alert, Badge, Button, Code, Group, Modal, NumberInput, Stack, Table, Text, Textarea } from '@mantine/core';
import type { OnchainPayoutBatch } from '@rayo/shared';
import { IconDownload, IconTrendingUp, IconUpload } from '@tabler/icons-react';
import { type FormEvent, useState } from 'react';
import {
  downloadBatchPsbt,
  useBumpBatchFee,
  useOnchainPayoutBatches,
  useSubmitSignedBatch,
} from '../../api/back-office.ts';
import { errorMessage } from '../../api/error-messages.ts';
import { useDateTimeFormat } from '../../components/date-time.ts';
import { useFormatLocale } from '../../components/format-locale.ts';
import { LoadError } from '../../components/LoadError.tsx';
import { notifications as toasts } from '../../components/notifications.ts';
import { useReturnFocus } from '../../components/use-return-focus.ts';
import { useTranslation } from '../../i18n/index.ts';

const stateColor: Record<OnchainPayoutBatch['state'], string> = {
  awaiting_signature: 'yellow',
  signed: 'blue',
  broadcast: 'blue',
  confirmed: 'teal',
};

/**
 * The on-chain payout batches. Without a hot wallet a batch waits here for the operator: its
 * PSBT goes to their wallet, and the signed PSBT or transaction comes back to be broadcast.
 */
export function OnchainBatchesPanel() {
  const { t } = useTranslation();
  const batches = useOnchainPayoutBatches();
  const date = useDateTimeFormat();
  const number = new Intl.NumberFormat(useFormatLocale());
  const [signing, setSigning] = useState<OnchainPayoutBatch | null>(null);
  const [bumping, setBumping] = useState<OnchainPayoutBatch | null>(null);

  if (batches.isError) return <LoadError error={batches.error} onRetry={() => batches.refetch()} />;
  if (batches.isPending) return <Text size="sm">{t('common.loading')}</Text>;
  if (batches.data.length === 0) {
    return (
      <Text c="dimmed" size="sm">
        {t('backOffice.onchain.empty')}
      </Text>
    );
  }
  return (
    <Stack gap="sm">
      <Text size="sm" c="dimmed">
        {t('backOffice.onchain.intro')}
      </Text>
      <Table.ScrollContainer minWidth={760}>
        <Table verticalSpacing="xs" data-testid="onchain-batches">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('backOffice.onchain.created')}</Table.Th>
              <Table.Th>{t('backOffice.onchain.state')}</Table.Th>
              <Table.Th ta="right">{t('backOffice.onchain.outputs')}</Table.Th>
              <Table.Th ta="right">{t('backOffice.onchain.amountSats')}</Table.Th>
              <Table.Th ta="right">{t('backOffice.onchain.feeSats')}</Table.Th>
              <Table.Th>{t('backOffice.onchain.txid')}</Table.Th>
              <Table.Th />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {batches.data.map((batch) => (
              <Table.Tr key={batch.id}>
                <Table.Td style={{ whiteSpace: 'nowrap' }}>{date(batch.createdAt)}</Table.Td>
                <Table.Td>
                  <Badge variant="light" color={stateColor[batch.state]}>
                    {t(`backOffice.onchain.states.${batch.state}`)}
                  </Badge>
                  {batch.state !== 'awaiting_signature' && (
                    <Text size="xs" c="dimmed">
                      {t('backOffice.onchain.confirmations', { count: batch.confirmations })}
                    </Text>
                  )}
                  {batch.lastError && (
                    <Text size="xs" c="red.8">
                      {batch.lastError}
                    </Text>
                  )}
                </Table.Td>
                <Table.Td ta="right">{number.format(batch.outputs)}</Table.Td>
                <Table.Td ta="right">{number.format(batch.amountSats)}</Table.Td>
                <Table.Td ta="right">{number.format(batch.feeSats)}</Table.Td>
                <Table.Td>
                  <Code title={batch.txid}>{`${batch.txid.slice(0, 10)}…${batch.txid.slice(-6)}`}</Code>
                  {batch.replacedTxids.length > 0 && (
                    <Text size="xs" c="dimmed" title={batch.replacedTxids.join('\n')}>
                      {t('backOffice.onchain.replaces', { count: batch.replacedTxids.length })}
                    </Text>
                  )}
                </Table.Td>
                <Table.Td>
                  <Group gap="xs" wrap="nowrap">
                    {batch.replaceable && (
                      <Button
                        size="xs"
                        variant="default"
                        leftSection={<IconTrendingUp size={14} />}
                        onClick={() => setBumping(batch)}
                      >
                        {t('backOffice.onchain.bump.button')}
                      </Button>
                    )}
                    {batch.state === 'awaiting_signature' && (
                      <>
                        <Button
                          size="xs"
                          variant="default"
                          leftSection={<IconDownload size={14} />}
                          onClick={() =>
                            downloadBatchPsbt(batch).catch((error: unknown) =>
                              toasts.show({ color: 'red', message: errorMessage(t, error) }),
                            )
                          }
                        >
                          {t('backOffice.onchain.downloadPsbt')}
                        </Button>
                        <Button size="xs" leftSection={<IconUpload size={14} />} onClick={() => setSigning(batch)}>
                          {t('backOffice.onchain.submitSigned')}
                        </Button>
                      </>
                    )}
                  </Group>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {signing && <SignedBatchModal batch={signing} onClose={() => setSigning(null)} />}
      {bumping && <BumpFeeModal batch={bumping} onClose={() => setBumping(null)} />}
    </Stack>
  );
}

function SignedBatchModal({ batch, onClose }: { batch: OnchainPayoutBatch; onClose: () => void }) {
  useReturnFocus();
  const { t } = useTranslation();
  const submit = useSubmitSignedBatch();
  const [transaction, setTransaction] = useState('');

  function send(event: FormEvent) {
    event.preventDefault();
    submit.mutate(
      { id: batch.id, transaction: transaction.trim() },
      {
        onSuccess: () => {
          toasts.show({ color: 'teal', message: t('backOffice.onchain.broadcast') });
          onClose();
        },
      },
    );
  }

  return (
    <Modal opened onClose={onClose} title={t('backOffice.onchain.submitTitle')} size="lg">
      <form onSubmit={send}>
        <Stack gap="sm">
          <Text size="sm">{t('backOffice.onchain.submitHelp', { txid: batch.txid })}</Text>
          <Textarea
            label={t('backOffice.onchain.signedLabel')}
            value={transaction}
            onChange={(event) => setTransaction(event.currentTarget.value)}
            rows={6}
            required
            styles={{ input: { fontFamily: 'monospace' } }}
          />
          {submit.isError && (
            <Alert color="red" role="alert">
              {errorMessage(t, submit.error)}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" loading={submit.isPending} disabled={transaction.trim() === ''}>
              {t('backOffice.onchain.broadcastButton')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

/**
 * A higher fee for a batch no block has taken: a replacement pays the same organizations from the
 * same coins at the rate given (empty: the current estimate), or the lowest rate the network
 * relays in its place if that is more. Without a hot wallet it then waits for a new signature.
 */
function BumpFeeModal({ batch, onClose }: { batch: OnchainPayoutBatch; onClose: () => void }) {
  const { t } = useTranslation();
  const bump = useBumpBatchFee();
  const [feeRate, setFeeRate] = useState<number | string>('');

  function send(event: FormEvent) {
    event.preventDefault();
    bump.mutate(
      { id: batch.id, ...(typeof feeRate === 'number' ? { feeRate } : {}) },
      {
        onSuccess: (replaced) => {
          toasts.show({
            color: 'teal',
            message:
              replaced.state === 'awaiting_signature'
                ? t('backOffice.onchain.bump.toSign', { rate: replaced.feeRate })
                : t('backOffice.onchain.bump.done', { rate: replaced.feeRate }),
          });
          onClose();
        },
      },
    );
  }

  return (
    <Modal opened onClose={onClose} title={t('backOffice.onchain.bump.title')} size="md">
      <form onSubmit={send}>
        <Stack gap="sm">
          <Text size="sm">{t('backOffice.onchain.bump.help', { rate: batch.feeRate })}</Text>
          <NumberInput
            label={t('backOffice.onchain.bump.rate')}
            description={t('backOffice.onchain.bump.rateHint')}
            value={feeRate}
            onChange={setFeeRate}
            min={1}
            max={1000}
            allowDecimal={false}
            allowNegative={false}
            suffix=" sat/vB"
          />
          {bump.isError && (
            <Alert color="red" role="alert">
              {errorMessage(t, bump.error)}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" loading={bump.isPending}>
              {t('backOffice.onchain.bump.submit')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
