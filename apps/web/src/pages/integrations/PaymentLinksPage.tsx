import { Alert, Button, Group, Loader, Paper, SegmentedControl, Stack, Text, TextInput, Title } from '@mantine/core';
import { canChangeOrganization, SATS, type VirtualBpt } from '@rayo/shared';
import { type FormEvent, useState } from 'react';
import { useParams } from 'react-router';
import { errorMessage } from '../../api/error-messages.ts';
import { useCreatePaymentLink, usePaymentLinks } from '../../api/payment-links.ts';
import { useVirtualBpts } from '../../api/virtual-bpts.ts';
import { notifications } from '../../components/notifications.ts';
import { useTranslation } from '../../i18n/index.ts';
import { useSession } from '../../session/use-session.ts';
import { PaymentLinkList } from './PaymentLinkList.tsx';
import { PaymentLinksHeading } from './PaymentLinksHeading.tsx';

/** `/integrations/payment-links/:vbpt` (SPEC §2 payment-link-vbpt): one virtual BPT's payment links. */
export function PaymentLinksPage() {
  const { t } = useTranslation();
  const { vbpt = '' } = useParams();
  const virtualBpts = useVirtualBpts();
  const virtualBpt = virtualBpts.data?.find((candidate) => candidate.id === vbpt);

  return (
    <>
      <PaymentLinksHeading back={{ to: '/integrations', label: t('paymentLinks.back') }} name={virtualBpt?.name} />
      {virtualBpts.isPending && <Loader aria-label={t('common.loading')} />}
      {virtualBpts.isError && (
        <Alert color="red" role="alert">
          {errorMessage(t, virtualBpts.error)}
        </Alert>
      )}
      {virtualBpts.data && !virtualBpt && (
        <Alert color="yellow" role="alert">
          {t('paymentLinks.virtualBptNotFound')}
        </Alert>
      )}
      {virtualBpt && <VirtualBptLinks virtualBpt={virtualBpt} />}
    </>
  );
}

function VirtualBptLinks({ virtualBpt }: { virtualBpt: VirtualBpt }) {
  const { t } = useTranslation();
  const editable = canChangeOrganization(useSession().role);
  const links = usePaymentLinks(virtualBpt.id);
  return (
    <Stack gap="lg">
      {editable && <CreatePaymentLinkForm virtualBpt={virtualBpt} />}
      <Stack gap="sm">
        <Title order={2} size="h4">
          {t('paymentLinks.listTitle')}
        </Title>
        <Text size="sm" c="dimmed">
          {t('paymentLinks.sellsFor', { bpt: virtualBpt.bptName, account: virtualBpt.accountName })}
        </Text>
        <PaymentLinkList query={links} emptyText={t('paymentLinks.emptyText')} deletable={editable} />
      </Stack>
    </Stack>
  );
}

/** Description and amount, in the linked BPT's currency or in sats (SPEC §3). */
function CreatePaymentLinkForm({ virtualBpt }: { virtualBpt: VirtualBpt }) {
  const { t } = useTranslation();
  const create = useCreatePaymentLink(virtualBpt.id);
  const currencies = virtualBpt.currency === SATS ? [SATS] : [virtualBpt.currency, SATS];
  const [description, setDescription] = useState('');
  const [amount, setAmount] = useState('');
  const [currency, setCurrency] = useState(currencies[0] ?? SATS);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate(
      { description: description.trim(), amount: amount.trim().replace(',', '.'), currency },
      {
        onSuccess: () => {
          setDescription('');
          setAmount('');
          notifications.show({ color: 'teal', message: t('paymentLinks.created') });
        },
      },
    );
  };

  return (
    <Paper withBorder p={{ base: 'md', sm: 'xl' }} maw={560}>
      <form onSubmit={submit} aria-label={t('paymentLinks.new')}>
        <Stack gap="sm">
          <Title order={2} size="h4">
            {t('paymentLinks.new')}
          </Title>
          <TextInput
            label={t('paymentLinks.description')}
            value={description}
            onChange={(event) => setDescription(event.currentTarget.value)}
            maxLength={300}
            required
          />
          <Group align="flex-end" gap="sm" wrap="nowrap">
            <TextInput
              label={t('paymentLinks.amount')}
              value={amount}
              onChange={(event) => setAmount(event.currentTarget.value)}
              inputMode="decimal"
              required
              style={{ flex: 1 }}
            />
            {currencies.length > 1 && (
              <SegmentedControl
                aria-label={t('paymentLinks.currency')}
                data={currencies.map((code) => ({ value: code, label: code === SATS ? t('paymentLinks.sats') : code }))}
                value={currency}
                onChange={setCurrency}
              />
            )}
          </Group>
          {create.isError && (
            <Alert color="red" variant="light" role="alert">
              {errorMessage(t, create.error)}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button type="submit" loading={create.isPending} disabled={!description.trim() || !amount.trim()}>
              {t('paymentLinks.create')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}
